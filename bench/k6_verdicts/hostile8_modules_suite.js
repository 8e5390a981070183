// args: -q
// A test split over local modules: a config module reading JSON, a SharedArray data module, request helpers.
import { sleep } from "k6";
import { config } from "./lib/h8/config.js";
import { getUser, postOrder } from "./lib/h8/requests.js";

export const options = {
  vus: config.vus,
  iterations: config.iterations,
  thresholds: {
    "http_req_duration{endpoint:user}": [`p(95)<${config.p95Ms}`],
    "http_reqs{endpoint:order}": ["count==4"],
    checks: ["rate==1"],
  },
};

export default function () {
  const u = getUser(__VU);
  postOrder(u, __ITER + 1);
  sleep(0.1);
}
