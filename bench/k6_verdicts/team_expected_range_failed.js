// args: -i 6
// 3xx counted as expected, the redirects not followed; 404s are failures: http_req_failed's rate is 1/3.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

http.setResponseCallback(http.expectedStatuses({ min: 200, max: 399 }));

export const options = {
  maxRedirects: 0,
  thresholds: {
    http_req_failed: ["rate>0.3", "rate<0.4"],
    "http_req_failed{expected_response:true}": ["rate==0"],
    "http_reqs{expected_response:false}": ["count==2"],
  },
};

export default function () {
  const i = __ITER % 3;
  const path = i === 0 ? "/status/200" : i === 1 ? "/status/302" : "/status/404";
  http.get(`${BASE}${path}`);
}
