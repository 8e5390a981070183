// args: -i 2
// TLS options (tlsVersion range, insecureSkipTLSVerify) on a test whose URLs are plain http.
import http from "k6/http";

export const options = {
  tlsVersion: { min: "tls1.2", max: "tls1.3" },
  insecureSkipTLSVerify: true,
  thresholds: { "http_reqs{status:200}": ["count==2"] },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
}
