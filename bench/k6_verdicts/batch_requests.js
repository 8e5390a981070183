// args: -u 2 -i 6
// http.batch: three requests in parallel, each checked, thresholds by the batch's request names.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    "http_reqs{name:batch-json}": ["count==6"],
    "http_req_duration{name:batch-home}": ["p(95)<2000"],
    "http_reqs{name:batch-bad}": ["count==6"],
    http_req_failed: ["rate<0.3"],
  },
};

export default function () {
  const [json, home, bad] = http.batch([
    ["GET", `${BASE}/json`, null, { tags: { name: "batch-json" } }],
    { method: "GET", url: `${BASE}/`, params: { tags: { name: "batch-home" } } },
    ["GET", `${BASE}/validate`, null, { tags: { name: "batch-bad" } }],
  ]);
  check(json, { "batch json is 200": (r) => r.status === 200 });
  check(home, { "batch home is 200": (r) => r.status === 200 });
  check(bad, { "batch bad is 400": (r) => r.status === 400 });
}
