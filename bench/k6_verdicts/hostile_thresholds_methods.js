// args: -u 2 -i 6
// Thresholds by method, status and a tag with a URL's query, and a p(99.9) and med aggregation.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    "http_req_duration{method:POST}": ["p(99.9)<5000", "med<5000"],
    "http_reqs{method:GET}": ["count==6"],
    "http_reqs{status:201}": ["count==6"],
    "http_reqs{name:search}": ["count==6"],
    "http_req_duration{url:http://127.0.0.1:18481/get?q=a}": ["max<5000"],
  },
};

export default function () {
  http.get(`${BASE}/get?q=a`);
  http.post(`${BASE}/post`, { a: "1" });
  http.get(`${BASE}/status/201`);
  http.get(`${BASE}/get?q=${__ITER}`, { tags: { name: "search" } });
}
