// args: --duration 2s
// --duration on the command line beside options.iterations: k6 runs shared-iterations with that
// maxDuration, so far fewer than the iterations asked run.
import http from "k6/http";
import { sleep } from "k6";

export const options = { vus: 1, iterations: 500, thresholds: { iterations: ["count<12", "count>0"] } };

export default function () {
  http.get("http://127.0.0.1:18481/get");
  sleep(0.5);
}
