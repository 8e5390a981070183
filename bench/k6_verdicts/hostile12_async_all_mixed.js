// args: -u 2 -i 4
// An async default function fanning out mixed verbs with Promise.all over http.asyncRequest, each tagged.
import http from "k6/http";
import { check } from "k6";

const B = "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    "http_reqs{op:read}": ["count==8"],
    "http_reqs{op:write}": ["count==8"],
    "http_req_duration{method:PUT}": ["max<5000"],
    checks: ["rate==1"],
  },
};

export default async function () {
  const params = (op) => ({ tags: { op }, headers: { "Content-Type": "application/json" } });
  const [a, b, c, d] = await Promise.all([
    http.asyncRequest("GET", `${B}/get?n=1`, null, params("read")),
    http.asyncRequest("POST", `${B}/post`, JSON.stringify({ n: 2 }), params("write")),
    http.asyncRequest("PUT", `${B}/put`, JSON.stringify({ n: 3 }), params("write")),
    http.asyncRequest("GET", `${B}/get?n=4`, null, params("read")),
  ]);
  check(a, { "get echoes": (r) => r.json("args.n") === "1" });
  check(b, { "post echoes json": (r) => r.json("json.n") === 2 });
  check(c, { "put echoes json": (r) => r.json("json.n") === 3 });
  check(d, { "second get": (r) => r.status === 200 });
}
