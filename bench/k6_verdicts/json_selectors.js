// args: -i 4
// Reading JSON answers with res.json(selector): nested keys, array indexes, a missing key.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const res = http.post(
    `${BASE}/post?team=web`,
    JSON.stringify({ items: [{ id: 7 }, { id: 9 }], owner: { name: "ann" } }),
    {
      headers: { "Content-Type": "application/json" },
    },
  );
  check(res, {
    "arg by path": (r) => r.json("args.team") === "web",
    "nested object": (r) => r.json("json.owner.name") === "ann",
    "array index": (r) => r.json("json.items.1.id") === 9,
    "array length": (r) => r.json("json.items.#") === 2,
    "missing is undefined": (r) => r.json("json.nope") === undefined,
  });
}
