// args: -u 2 -i 6
// Dynamic URLs grouped by params.tags.name; thresholds by that name and by the URL of one of them.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    "http_reqs{name:ProductPage}": ["count==6"],
    "http_reqs{url:http://127.0.0.1:18481/anything/p/1}": ["count==0"],
    "http_reqs{url:http://127.0.0.1:18481/get?static=1}": ["count==6"],
    "http_req_duration{name:ProductPage}": ["p(95)<10000"],
  },
};

export default function () {
  http.get(`${BASE}/anything/p/${__ITER + 1}?vu=${__VU}`, { tags: { name: "ProductPage" } });
  http.get(`${BASE}/get?static=1`);
}
