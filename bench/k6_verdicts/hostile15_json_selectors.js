// args: -i 2
// res.json(selector) as gjson reads it: nested keys, array length, an index, a miss, a wildcard.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const body = JSON.stringify({ items: [{ id: 1, tags: ["a"] }, { id: 2, tags: [] }], "dot.key": 5 });
  const res = http.post("http://127.0.0.1:18481/post", body, {
    headers: { "Content-Type": "application/json" },
  });
  check(res, {
    "nested": (r) => r.json("json.items.1.id") === 2,
    "count": (r) => r.json("json.items.#") === 2,
    "ids": (r) => JSON.stringify(r.json("json.items.#.id")) === "[1,2]",
    "escaped dot": (r) => r.json("json.dot\\.key") === 5,
    "miss": (r) => r.json("json.nothing.here") === undefined,
    "object": (r) => r.json("json.items.0").tags[0] === "a",
    "wildcard": (r) => r.json("json.it*.0.id") === 1,
    "whole": (r) => typeof r.json() === "object" && r.json().json.items.length === 2,
  });
}
