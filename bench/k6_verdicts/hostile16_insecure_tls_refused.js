// args: -i 1
// insecureSkipTLSVerify with an https URL to a plain-http port: the TLS handshake fails, counted failed.
import http from "k6/http";
import { check } from "k6";

export const options = {
  insecureSkipTLSVerify: true,
  thresholds: { http_req_failed: ["rate==0.5"], checks: ["rate==0.5"] },
};

export default function () {
  const tls = http.get("https://127.0.0.1:18481/get");
  const plain = http.get("http://127.0.0.1:18481/get");
  check(tls, { "tls fails": (r) => r.status === 200 });
  check(plain, { "plain ok": (r) => r.status === 200 });
}
