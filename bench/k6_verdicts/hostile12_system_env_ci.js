// args: -u 1 -i 1 --include-system-env-vars -e STAGE=ci
// env: CI_PIPELINE_ID=4711
// --include-system-env-vars with a CI runner's variable, beside -e: both in __ENV.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const res = http.get(`http://127.0.0.1:18481/get?pipeline=${__ENV.CI_PIPELINE_ID}&stage=${__ENV.STAGE}`);
  check(res, {
    "pipeline id from the system": (r) => r.json("args.pipeline") === "4711",
    "stage from -e": (r) => r.json("args.stage") === "ci",
  });
}
