// args: -i 2
// http.batch with array requests (method, url, body, params) and plain URL strings; checks by index.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    "http_reqs{name:batch-get}": ["count==2"],
    "http_reqs{method:POST}": ["count==2"],
    http_reqs: ["count==8"],
  },
};

export default function () {
  const responses = http.batch([
    ["GET", `${BASE}/get?i=1`, null, { tags: { name: "batch-get" } }],
    ["POST", `${BASE}/post`, JSON.stringify({ a: 1 }), { headers: { "Content-Type": "application/json" } }],
    `${BASE}/json`,
    `${BASE}/`,
  ]);
  check(responses[0], { "first echoes i": (r) => r.json("args.i") === "1" });
  check(responses[1], { "second echoes body": (r) => r.json("json.a") === 1 });
  check(responses[2], { "third is json": (r) => r.headers["Content-Type"].includes("json") });
}
