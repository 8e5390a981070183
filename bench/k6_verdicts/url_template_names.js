// args: -i 3
// http.url tagged templates group URLs by one name (each ${} kept, the base's too); thresholds by it.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    "http_reqs{name:${}/get?id=${}}": ["count==3"],
    "http_req_duration{name:${}/get?id=${}}": ["p(95)<3000"],
    "http_reqs{url:http://127.0.0.1:18481/json}": ["count==3"],
  },
};

export default function () {
  http.get(http.url`${BASE}/get?id=${__ITER * 7}`);
  http.get(`${BASE}/json`);
}
