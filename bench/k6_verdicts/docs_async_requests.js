// args: -u 2 -i 4
// k6's documentation's asyncRequest: requests sent together with Promise.all, one awaited after another,
// a rejected one caught, under an async default function.
import http from "k6/http";
import { check } from "k6";
import { Counter } from "k6/metrics";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const settled = new Counter("settled");

export const options = {
  thresholds: { checks: ["rate==1"], settled: ["count==12"], "http_reqs{name:together}": ["count==8"] },
};

export default async function () {
  const [a, b] = await Promise.all([
    http.asyncRequest("GET", `${BASE}/get?n=1`, null, { tags: { name: "together" } }),
    http.asyncRequest("POST", `${BASE}/post`, JSON.stringify({ n: 2 }), {
      headers: { "Content-Type": "application/json" },
      tags: { name: "together" },
    }),
  ]);
  settled.add(2);
  check(a, { "first": (r) => r.json("args.n") === "1" });
  check(b, { "second": (r) => r.json("json.n") === 2 });
  const c = await http.asyncRequest("GET", `${BASE}/delay/0.05`);
  settled.add(1);
  check(c, { "awaited after": (r) => r.status === 200 && r.timings.duration >= 40 });
  try {
    await http.asyncRequest("GET", "http://127.0.0.1:1/refused", null, { throw: true });
  } catch (e) {
    check(e, { "rejected with an error": (err) => String(err).length > 0 });
  }
}
