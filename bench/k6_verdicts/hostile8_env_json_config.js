// env: ENVIRONMENT=prod
// The environment chooses a JSON config opened in init code; its base URL and load shape drive the test.
import http from "k6/http";
import { check } from "k6";

const ENV = __ENV.ENVIRONMENT || "staging";
const cfg = JSON.parse(open(`./data/h8_${ENV}.json`));

export const options = {
  vus: cfg.vus,
  iterations: cfg.iterations,
  thresholds: { http_reqs: [`count==${cfg.iterations}`], [`http_req_duration{env:${ENV}}`]: ["max<5000"] },
  tags: { env: ENV },
};

export default function () {
  const res = http.get(`${cfg.baseUrl}/`);
  check(res, { "prod target": (r) => r.status === 200 && cfg.baseUrl.endsWith("18482") });
}
