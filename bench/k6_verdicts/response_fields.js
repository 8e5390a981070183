// args:
// Checks on the response fields teams assert: status_text, proto, header case, request, url after a redirect.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
export const options = { iterations: 3, thresholds: { checks: ["rate==1"] } };

export default function () {
  const res = http.get(`${BASE}/redirect/1`);
  check(res, {
    "status text": (r) => r.status_text === "200 OK",
    "proto": (r) => r.proto === "HTTP/1.1",
    "canonical header": (r) => r.headers["Content-Type"] !== undefined,
    "lower-case header absent": (r) => r.headers["content-type"] === undefined,
    "url after redirect": (r) => r.url === `${BASE}/get`,
    "request method": (r) => r.request.method === "GET",
    "timings": (r) => r.timings.duration >= 0 && r.timings.waiting >= 0,
    "remote ip": (r) => r.remote_ip === "127.0.0.1" && r.remote_port === 18481,
  });
}
