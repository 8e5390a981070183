// args: -e STAGES=1s:2,1s:0 -e TARGET=http://127.0.0.1:18481
// Stages from an environment variable, parsed into options; the target from -e too.
import http from "k6/http";
import { check, sleep } from "k6";

function stagesFrom(text) {
  return text.split(",").map((s) => {
    const [duration, target] = s.split(":");
    return { duration, target: parseInt(target, 10) };
  });
}

export const options = {
  stages: stagesFrom(__ENV.STAGES || "2s:1"),
  thresholds: { http_req_failed: ["rate==0"], vus_max: ["value==2"], checks: ["rate==1"] },
};

export default function () {
  const res = http.get(`${__ENV.TARGET}/get?stage=1`);
  check(res, { "stage arg": (r) => r.json("args.stage") === "1" });
  sleep(0.2);
}
