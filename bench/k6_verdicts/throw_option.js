// args: -i 4
// options.throw: a request that cannot connect throws; the script catches it and counts it.
import http from "k6/http";
import { Counter } from "k6/metrics";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const caught = new Counter("caught_errors");

export const options = {
  throw: true,
  thresholds: { caught_errors: ["count==4"], "http_reqs{expected_response:true}": ["count==4"] },
};

export default function () {
  http.get(`${BASE}/json`);
  try {
    http.get("http://127.0.0.1:9/closed");
  } catch {
    caught.add(1);
  }
}
