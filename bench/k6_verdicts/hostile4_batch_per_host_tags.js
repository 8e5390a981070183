// args: -u 1 -i 2 --batch-per-host 1 --batch 2
// http.batch of arrays with nulls for body and params, requests to two origins capped by the flags,
// responses read by index; thresholds by the tags given per request.
import http from "k6/http";
import { check } from "k6";

export const options = {
  thresholds: {
    "http_reqs{kind:read}": ["count==6"],
    "http_reqs{kind:write}": ["count==2"],
    checks: ["rate==1"],
  },
};

export default function () {
  const responses = http.batch([
    ["GET", "http://127.0.0.1:18481/get?n=1", null, { tags: { kind: "read" } }],
    ["GET", "http://127.0.0.1:18482/get?n=2", null, { tags: { kind: "read" } }],
    ["POST", "http://127.0.0.1:18481/post", "a=1", { tags: { kind: "write" } }],
    ["GET", "http://127.0.0.1:18482/get?n=3", null, { tags: { kind: "read" } }],
  ]);
  check(responses, {
    "four answers": (r) => r.length === 4,
    "order kept": (r) => r[1].json("args.n") === "2" && r[3].json("args.n") === "3",
    "post echoed": (r) => r[2].json("form.a") === "1",
  });
}
