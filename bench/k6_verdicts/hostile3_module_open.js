// args: -u 2 -i 6
// A SharedArray built in a helper module from open() of a path relative to that module (lib/h3/), its
// items read by index, iterated with for...of and forEach, and never changed.
import http from "k6/http";
import { check } from "k6";
import { products } from "./lib/h3/products.js";

export const options = { thresholds: { checks: ["rate==1"], http_reqs: ["count==6"] } };

export default function () {
  const p = products[__ITER % products.length];
  let total = 0;
  for (const item of products) total += item.price;
  let tagged = 0;
  products.forEach((item) => (tagged += item.tags.length));
  const res = http.post("http://127.0.0.1:18481/post", JSON.stringify(p), {
    headers: { "Content-Type": "application/json" },
  });
  check(res, {
    "sku echoed": (r) => r.json("json.sku") === p.sku,
    "three products": () => products.length === 3,
    "total price": () => Math.abs(total - 115.49) < 1e-9,
    "three tags": () => tagged === 3,
  });
}
