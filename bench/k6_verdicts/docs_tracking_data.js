// args: -u 2 -i 4
// k6's documentation's data tracked per URL: two Counters fed the size of each request's and response's
// headers and body (`res.request.headers`, `res.request.body`), tagged with the URL, thresholds per URL.
import http from "k6/http";
import { check } from "k6";
import { Counter } from "k6/metrics";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
export const epDataSent = new Counter("endpoint_data_sent");
export const epDataRecv = new Counter("endpoint_data_recv");

export const options = {
  thresholds: {
    endpoint_data_sent: ["count > 100", "count < 20000"],
    [`endpoint_data_sent{url:${BASE}/post}`]: ["count > 100"],
    [`endpoint_data_recv{url:${BASE}/get}`]: ["count > 100"],
    [`endpoint_data_recv{url:${BASE}/nowhere}`]: ["count == 0"],
  },
};

function sizeOfHeaders(hdrs) {
  return Object.keys(hdrs).reduce((sum, key) => sum + key.length + hdrs[key].length, 0);
}

function trackDataMetricsPerURL(res) {
  epDataSent.add(sizeOfHeaders(res.request.headers) + res.request.body.length, { url: res.url });
  epDataRecv.add(sizeOfHeaders(res.headers) + res.body.length, { url: res.url });
}

export default function () {
  let res = http.get(`${BASE}/get`);
  trackDataMetricsPerURL(res);
  check(res, {
    "request header values are lists": (r) => Array.isArray(r.request.headers["User-Agent"]),
    "empty request body": (r) => r.request.body === "",
  });
  res = http.post(`${BASE}/post`, JSON.stringify({ name: "k6" }), {
    headers: { "Content-Type": "application/json" },
  });
  trackDataMetricsPerURL(res);
  check(res, { "request body kept": (r) => r.request.body === '{"name":"k6"}' });
}
