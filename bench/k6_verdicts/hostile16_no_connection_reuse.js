// args: -i 2 -u 1
// noConnectionReuse: every request dials, so connecting is timed on each.
import http from "k6/http";
import { check } from "k6";

export const options = { noConnectionReuse: true, thresholds: { checks: ["rate==1"] } };

export default function () {
  for (let k = 0; k < 3; k++) {
    const res = http.get("http://127.0.0.1:18481/get");
    check(res, { "dialled": (r) => r.timings.connecting > 0 });
  }
}
