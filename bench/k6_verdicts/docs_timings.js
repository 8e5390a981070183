// args: -u 1 -i 3
// k6's documentation's timings of one request: every `res.timings` field, its parts adding up to its
// duration, and a Trend per phase with thresholds.
import http from "k6/http";
import { check } from "k6";
import { Trend } from "k6/metrics";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const waiting = new Trend("phase_waiting", true);

export const options = {
  thresholds: {
    phase_waiting: ["p(95)<5000", "min>=45"],
    http_req_waiting: ["max<5000"],
    http_req_tls_handshaking: ["max==0"],
  },
};

export default function () {
  const res = http.get(`${BASE}/delay/0.05`);
  const t = res.timings;
  waiting.add(t.waiting);
  check(res, {
    "every field a number": () =>
      ["blocked", "connecting", "tls_handshaking", "sending", "waiting", "receiving", "duration"]
        .every((k) => typeof t[k] === "number" && t[k] >= 0),
    "duration is sending+waiting+receiving": () =>
      Math.abs(t.duration - (t.sending + t.waiting + t.receiving)) < 1,
    "waited the delay": () => t.waiting >= 45,
    "no tls": () => t.tls_handshaking === 0,
    "String() of duration": () => /^\d+(\.\d+)?$/.test(String(t.duration)),
  });
}
