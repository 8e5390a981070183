// args: -i 2
// options.dns with a ttl, a select and a policy; localhost resolved through it.
import http from "k6/http";
import { check } from "k6";

export const options = {
  dns: { ttl: "1m", select: "roundRobin", policy: "preferIPv4" },
  thresholds: { checks: ["rate==1"] },
};

export default function () {
  check(http.get("http://localhost:18481/get"), { "resolved": (r) => r.status === 200 });
}
