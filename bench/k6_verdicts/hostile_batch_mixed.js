// args: -i 2
// http.batch mixing a URL string, an array with a body and params, and an object with tags; per-batch checks.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: { "http_reqs{kind:batch}": ["count==2"], checks: ["rate==1"] },
};

export default function () {
  const res = http.batch([
    `${BASE}/get?a=1`,
    ["POST", `${BASE}/post`, JSON.stringify({ k: 1 }), { headers: { "Content-Type": "application/json" } }],
    { method: "GET", url: `${BASE}/status/201`, params: { tags: { kind: "batch" } } },
  ]);
  check(res, {
    "three": (r) => r.length === 3,
    "first": (r) => r[0].json("args.a") === "1",
    "posted": (r) => r[1].json("json.k") === 1,
    "created": (r) => r[2].status === 201,
  });
}
