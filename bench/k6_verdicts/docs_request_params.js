// args: -u 1 -i 3
// k6's documentation's Params: headers, a per-request timeout as a string and as milliseconds, a gzip
// compressed body, http.request with each verb's name, HEAD and OPTIONS answers.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    checks: ["rate==1"],
    "http_reqs{method:HEAD}": ["count==3"],
    "http_reqs{method:OPTIONS}": ["count==3"],
  },
};

export default function () {
  const timed = http.get(`${BASE}/delay/0.3`, { timeout: "100ms" });
  check(timed, {
    "timed out": (r) => r.status === 0 && r.error_code === 1050,
    "error text": (r) => r.error.includes("timeout"),
  });
  const ms = http.get(`${BASE}/delay/0.05`, { timeout: 2000 });
  check(ms, { "in time": (r) => r.status === 200 });
  const gz = http.post(`${BASE}/anything`, "a".repeat(200), { compression: "gzip" });
  check(gz, {
    "content-encoding sent": (r) => r.json("headers.Content-Encoding") === "gzip",
    "body compressed": (r) => r.request.body.length < 200 || r.json("data").length < 200,
  });
  const head = http.request("HEAD", `${BASE}/get`);
  check(head, { "head has no body": (r) => r.status === 200 && (r.body === "" || r.body === null) });
  const opts = http.options(`${BASE}/anything`);
  check(opts, { "options answered": (r) => r.json("method") === "OPTIONS" });
  const gzipped = http.get(`${BASE}/gzip`);
  check(gzipped, { "gzip decoded": (r) => r.json("gzipped") === true });
}
