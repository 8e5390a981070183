// args: -u 1 -i 2
// Payloads from a generator function, iterated with for...of and spread, as a data builder does.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"], http_reqs: ["count==6"] } };

function* orders(n) {
  for (let i = 1; i <= n; i++) yield { id: i, sku: `sku-${i}` };
}

const catalog = {
  *[Symbol.iterator]() {
    yield "a";
    yield "b";
  },
};

export default function () {
  for (const order of orders(3)) {
    const r = http.post("http://127.0.0.1:18481/post", JSON.stringify(order), {
      headers: { "Content-Type": "application/json" },
    });
    check(r, { "order echoed": (res) => res.json("json.sku") === `sku-${order.id}` });
  }
  const skus = [...catalog];
  check(skus, { "iterable spread": (s) => s.join() === "a,b" });
}
