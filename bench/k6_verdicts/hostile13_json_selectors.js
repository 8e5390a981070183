// args: -u 1 -i 2
// res.json(selector) with gjson paths: nested keys, array index, count, a miss (undefined).
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const res = http.post(
    "http://127.0.0.1:18481/post",
    JSON.stringify({ items: [{ id: 7 }, { id: 9 }], tag: "x" }),
    {
      headers: { "Content-Type": "application/json" },
    },
  );
  check(res, {
    "nested key": (r) => r.json("json.tag") === "x",
    "array index": (r) => r.json("json.items.1.id") === 9,
    "array count": (r) => r.json("json.items.#") === 2,
    "all ids": (r) => JSON.stringify(r.json("json.items.#.id")) === "[7,9]",
    "missing is undefined": (r) => r.json("json.nope") === undefined,
  });
}
