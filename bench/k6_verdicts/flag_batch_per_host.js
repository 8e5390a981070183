// args: -i 2 --batch 2 --batch-per-host 1
// k6's --batch and --batch-per-host flags over a named http.batch of request objects.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    "http_reqs{kind:batch}": ["count==6"],
    "http_req_duration{name:users}": ["p(99.9)<5000"],
    checks: ["rate==1"],
  },
};

export default function () {
  const res = http.batch({
    users: { method: "GET", url: `${BASE}/get?u=1`, params: { tags: { name: "users", kind: "batch" } } },
    post: {
      method: "POST",
      url: `${BASE}/post`,
      body: JSON.stringify({ a: 1 }),
      params: { tags: { kind: "batch" } },
    },
    home: { method: "GET", url: `${BASE}/json`, params: { tags: { kind: "batch" } } },
  });
  check(res.post, { "posted json echoed": (r) => r.json("json.a") === 1 });
  check(res.home, { "greeted": (r) => r.json("message") === "Hello, World!" });
}
