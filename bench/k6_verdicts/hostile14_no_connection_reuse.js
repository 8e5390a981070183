// args: -i 3
// noConnectionReuse: every request dials again, which its timings show.
import http from "k6/http";
import { check } from "k6";

export const options = { noConnectionReuse: true, thresholds: { checks: ["rate==1"] } };

export default function () {
  for (let k = 0; k < 2; k++) {
    const res = http.get("http://127.0.0.1:18481/get");
    check(res, { "dialled anew": (r) => r.timings.connecting > 0 });
  }
}
