// args: -u 1 -i 3
// res.timings as k6 fills them: duration is sending + waiting + receiving; the parts are not negative.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const t = http.get("http://127.0.0.1:18481/bytes/2048").timings;
  check(t, {
    "duration is the sum": (v) => Math.abs(v.duration - (v.sending + v.waiting + v.receiving)) < 0.001,
    "parts not negative": (v) =>
      [v.blocked, v.connecting, v.tls_handshaking, v.sending, v.waiting].every((x) => x >= 0),
    "no tls": (v) => v.tls_handshaking === 0,
  });
}
