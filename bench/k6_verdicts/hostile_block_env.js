// args: -i 2
// env: K6_BLOCK_HOSTNAMES=*.blocked.test,internal.test K6_BLACKLIST_IPS=10.0.0.0/8 K6_DNS=ttl=inf
// The blocks from k6's variables, as a CI image sets them for every test it runs.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  check(http.get(`${BASE}/get`), { "sent": (r) => r.status === 200 });
  check(http.get("http://api.blocked.test/"), { "pattern blocked": (r) => r.error_code === 1111 });
  check(http.get("http://internal.test/"), { "name blocked": (r) => r.error_code === 1111 });
  check(http.get("http://10.1.2.3/"), { "ip blacklisted": (r) => r.error_code === 1110 });
}
