// args: -i 20
// randomSeed with a weighted pick of endpoints; 404 expected as well as 2xx; a custom Rate judged by rate.
import http from "k6/http";
import { Rate } from "k6/metrics";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const missing = new Rate("missing_pages");

export const options = {
  randomSeed: 1234,
  thresholds: {
    http_req_failed: ["rate==0"],
    missing_pages: ["rate<=1", "rate>=0"],
    "http_reqs{expected_response:true}": ["count==20"],
  },
};

http.setResponseCallback(http.expectedStatuses({ min: 200, max: 299 }, 404));

export default function () {
  const path = Math.random() < 0.3 ? "/no-such-page" : "/get";
  const res = http.get(`${BASE}${path}`);
  missing.add(res.status === 404);
}
