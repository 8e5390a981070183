// args: -i 2
// res.json() with gjson selectors teams use: array counts, indexes, nested fields, a missing path.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const body = { items: [{ id: 1, tags: ["a"] }, { id: 2, tags: ["b", "c"] }], meta: { "total-count": 2 } };
  const res = http.post(`${BASE}/post`, JSON.stringify(body), {
    headers: { "Content-Type": "application/json" },
  });
  check(res, {
    "count": (r) => r.json("json.items.#") === 2,
    "ids": (r) => JSON.stringify(r.json("json.items.#.id")) === "[1,2]",
    "index": (r) => r.json("json.items.1.id") === 2,
    "nested tags": (r) => JSON.stringify(r.json("json.items.#.tags.0")) === '["a","b"]',
    "dash key": (r) => r.json("json.meta.total-count") === 2,
    "missing": (r) => r.json("json.nope") === undefined,
    "whole": (r) => r.json().json.items.length === 2,
  });
}
