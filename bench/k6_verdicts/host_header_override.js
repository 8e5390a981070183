// args: -i 2
// A Host header set by the script (virtual hosting behind one address), echoed back by the server.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const res = http.get(`${BASE}/get`, {
    headers: { Host: "shop.example.test" },
  });
  check(res, {
    "host sent": (r) => r.json("headers.Host") === "shop.example.test",
  });
}
