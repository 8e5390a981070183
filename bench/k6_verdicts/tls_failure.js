// args: -i 3
// TLS to a server that speaks plain HTTP: the handshake fails, and no threshold is crossed.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { http_req_failed: ["rate>0.5"] } };

export default function () {
  const res = http.get("https://127.0.0.1:18481/json");
  check(res, { "handshake failed": (r) => r.status === 0 });
}
