// env: K6_ITERATIONS=3
// K6_ITERATIONS in the environment outranks the script's stages: 1 VU runs 3 iterations, no ramp.
import http from "k6/http";
import exec from "k6/execution";
import { check } from "k6";

export const options = {
  stages: [{ duration: "3s", target: 4 }, { duration: "1s", target: 0 }],
  thresholds: { iterations: ["count==3"], http_reqs: ["count==3"], checks: ["rate==1"] },
};

export default function () {
  http.get("http://127.0.0.1:18481/get?tier=env");
  check(exec.instance, { "1 VU": (i) => i.vusInitialized === 1 });
}
