// args: -i 2
// Response fields teams check: header names as k6 canonicalizes them, cookies, request echo, status_text.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate>=0"] } };

export default function () {
  const res = http.post(`${BASE}/post`, JSON.stringify({ a: 1 }), {
    headers: { "content-type": "application/json", "x-api-key": "k" },
  });
  check(res, {
    "canonical header": (r) => r.headers["Content-Type"] === "application/json",
    "lower header absent": (r) => r.headers["content-type"] === undefined,
    "status text": (r) => r.status_text === "200 OK",
    "request body": (r) => r.request.body === '{"a":1}',
    "request header": (r) => r.request.headers["X-Api-Key"] !== undefined,
    "proto": (r) => r.proto === "HTTP/1.1",
    "url": (r) => r.url === `${BASE}/post`,
    "timings": (r) => r.timings.duration >= 0 && r.timings.waiting >= 0,
  });
  const set = http.get(`${BASE}/response-headers?Set-Cookie=flavour%3Doat`);
  check(set, { "cookie": (r) => r.cookies.flavour !== undefined && r.cookies.flavour[0].value === "oat" });
  const none = http.get(`${BASE}/bytes/16`, { responseType: "none" });
  check(none, { "no body": (r) => r.body === null || r.body === undefined });
  const bin = http.get(`${BASE}/bytes/16`, { responseType: "binary" });
  check(bin, { "binary": (r) => r.body.byteLength === 16 });
}
