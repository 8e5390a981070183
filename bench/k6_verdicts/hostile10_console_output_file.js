// args: -u 2 -i 4 --console-output /tmp/loadlab_h10_console.log
// `--console-output FILE`: the iterations' console lines go to a file; the verdict is the thresholds'.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"], iterations: ["count==4"] } };

export default function () {
  console.log(`vu ${__VU} iter ${__ITER}`);
  console.warn("slow path skipped");
  check(http.get("http://127.0.0.1:18481/get"), { "status 200": (r) => r.status === 200 });
}
