// args: -i 2 --block-hostnames *.b.test --blacklist-ip 10.0.0.0/8 --blacklist-ip 172.16.0.0/12 --dns ttl=1m
// The blocks on the command line, as a CI job keeps a shared test off production: the flags replace the
// script's own lists (k6's tiers): its 192.168.0.0/16 is sent (and fails), 10/8 and 172.16/12 are not.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  blacklistIPs: ["192.168.0.0/16"],
  thresholds: { checks: ["rate==1"] },
};

const fails = (code) => (r) => r.error_code === code;

export default function () {
  check(http.get(`${BASE}/get`), { "sent": (r) => r.status === 200 });
  check(http.get("http://api.b.test/"), { "host blocked": fails(1111) });
  check(http.get("http://10.1.2.3/"), { "10/8 blacklisted": fails(1110) });
  check(http.get("http://172.16.0.9/"), { "172.16/12 blacklisted": fails(1110) });
  check(http.get("http://192.168.1.1/", { timeout: "2s" }), {
    "script's range replaced": (r) => r.error_code !== 1110,
  });
}
