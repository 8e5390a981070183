// `res.json(selector)` on an echoed JSON body: nested paths, an index, `#` counts, `#.field` lists and a
// path that finds nothing.
import http from "k6/http";
import { check } from "k6";

export const options = { iterations: 2, thresholds: { checks: ["rate==1"] } };

export default function () {
  const body = { order: { id: 42, items: [{ sku: "a", qty: 2 }, { sku: "b", qty: 1 }] }, tags: ["x", "y"] };
  const res = http.post("http://127.0.0.1:18481/post", JSON.stringify(body), {
    headers: { "Content-Type": "application/json" },
  });
  check(res, {
    "nested": (r) => r.json("json.order.id") === 42,
    "index": (r) => r.json("json.order.items.1.sku") === "b",
    "count": (r) => r.json("json.order.items.#") === 2,
    "list": (r) => JSON.stringify(r.json("json.order.items.#.qty")) === "[2,1]",
    "missing": (r) => r.json("json.order.nope") === undefined,
    "array item": (r) => r.json("json.tags.0") === "x",
  });
}
