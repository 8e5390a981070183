// args: -i 2
// blockHostnames, blacklistIPs and dns in options, as teams keep a test off production hosts.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  blockHostnames: ["*.blocked.test"],
  blacklistIPs: ["10.0.0.0/8"],
  dns: { ttl: "1m", select: "roundRobin", policy: "preferIPv4" },
  thresholds: { checks: ["rate==1"] },
};

export default function () {
  check(http.get(`${BASE}/get`), { "sent": (r) => r.status === 200 });
  const blocked = http.get("http://api.blocked.test/");
  check(blocked, { "host blocked": (r) => r.error_code === 1111 && r.error === "hostname is blocked" });
  const ip = http.get("http://10.1.2.3/");
  check(ip, { "ip blacklisted": (r) => r.error_code === 1110 && r.error === "ip is blacklisted" });
}
