// args: -i 3 -u 1
// noVUConnectionReuse: each iteration dials once, its later requests reuse the connection.
import http from "k6/http";
import { check } from "k6";

export const options = { noVUConnectionReuse: true, thresholds: { checks: ["rate==1"] } };

export default function () {
  const first = http.get("http://127.0.0.1:18481/get");
  const second = http.get("http://127.0.0.1:18481/get");
  check(first, { "first dials": (r) => r.timings.connecting > 0 });
  check(second, { "second reuses": (r) => r.timings.connecting === 0 });
}
