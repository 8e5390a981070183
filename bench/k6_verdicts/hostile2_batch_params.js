// args: -u 2 -i 4
// http.batch of request objects with their own params: tags, headers, a responseCallback that expects 404
// on one, a POST body on another; results read by index and by name.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    http_req_failed: ["rate==0"],
    "http_reqs{kind:missing}": ["count==4"],
    "http_req_duration{kind:list}": ["p(95)<2000"],
    checks: ["rate==1"],
  },
};

export default function () {
  const reqs = {
    list: { method: "GET", url: `${BASE}/get?page=1`, params: { tags: { kind: "list" } } },
    missing: {
      method: "GET",
      url: `${BASE}/status/404`,
      params: { tags: { kind: "missing" }, responseCallback: http.expectedStatuses(404) },
    },
    create: {
      method: "POST",
      url: `${BASE}/post`,
      body: JSON.stringify({ vu: __VU }),
      params: { headers: { "Content-Type": "application/json", "X-Req": "create" } },
    },
  };
  const res = http.batch(reqs);
  check(res.list, { "list 200": (r) => r.status === 200 && r.json("args.page") === "1" });
  check(res.missing, { "missing 404": (r) => r.status === 404 });
  check(res.create, {
    "create echoed": (r) => r.json("json.vu") === __VU,
    "header sent": (r) => r.json("headers.X-Req") === "create",
  });
}
