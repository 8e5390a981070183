// args: -e VUS=3 -e ITERS=6 -e MAX_P95=3000
// Options read from -e variables with and without fallbacks, as a pipeline passes them.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  vus: parseInt(__ENV.VUS || "1"),
  iterations: parseInt(__ENV.ITERS),
  thresholds: {
    http_req_duration: [`p(95)<${__ENV.MAX_P95}`],
    http_reqs: [`count==${__ENV.ITERS}`],
    vus_max: [`value==${__ENV.VUS}`],
  },
};

export default function () {
  http.get(`${BASE}/json?region=${__ENV.REGION || "eu"}`);
}
