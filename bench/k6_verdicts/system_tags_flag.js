// args: -i 2 --system-tags status,method
// k6's --system-tags: only status and method tag a request, so a threshold by name has no samples.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: { "http_reqs{method:GET}": ["count==2"], "http_reqs{status:200}": ["count==2"] },
};

export default function () {
  http.get(`${BASE}/get`);
}
