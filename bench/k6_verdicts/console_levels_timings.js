// args: -u 2 -i 6
// console.warn/error/info with objects and checks on res.timings phases.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    "checks{phase:timings}": ["rate==1"],
    http_req_receiving: ["max<3000"],
  },
};

export default function () {
  const res = http.get(`${BASE}/json`);
  if (res.timings.duration > 2000) {
    console.warn("slow", { url: res.url, ms: res.timings.duration });
  }
  console.info(`vu=${__VU} iter=${__ITER}`);
  if (res.status !== 200) console.error({ status: res.status, body: res.body });
  check(res, {
    "phases add up": (r) =>
      Math.abs(
        r.timings.sending + r.timings.waiting + r.timings.receiving -
          r.timings.duration,
      ) < 0.01,
    "blocked not negative": (r) => r.timings.blocked >= 0 && r.timings.connecting >= 0,
    "no TLS": (r) => r.timings.tls_handshaking === 0,
  }, { phase: "timings" });
}
