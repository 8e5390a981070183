// args: -u 1 -i 2
// Response.json() selectors as k6's documentation and scripts use them (gjson): nested paths, array
// indexes, `#` counts, `#.field` lists, escaped dots, a missing path.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const body = {
    items: [{ name: "a", tags: ["x"] }, { name: "b", tags: ["y", "z"] }],
    "dotted.key": 5,
    nested: { deep: { value: true } },
    empty: [],
  };
  const res = http.post(`${BASE}/post`, JSON.stringify(body), {
    headers: { "Content-Type": "application/json" },
  });
  check(res, {
    "nested": (r) => r.json("json.nested.deep.value") === true,
    "index": (r) => r.json("json.items.1.name") === "b",
    "count": (r) => r.json("json.items.#") === 2,
    "list of a field": (r) => r.json("json.items.#.name").join() === "a,b",
    "escaped dot": (r) => r.json("json.dotted\\.key") === 5,
    "empty count": (r) => r.json("json.empty.#") === 0,
    "missing is undefined": (r) => r.json("json.nope.nothing") === undefined,
    "whole": (r) => r.json().json.items.length === 2,
    "nested array": (r) => r.json("json.items.1.tags.1") === "z",
  });
}
