// args: -e ENDPOINT=orders -e P95_MS=3000 -e ERRORS=0.01
// Threshold keys and rules built from `-e` values (a tag's name, a budget in ms, an error rate), as
// teams share one script across services.
import http from "k6/http";

const ep = __ENV.ENDPOINT || "health";

export const options = {
  iterations: 3,
  thresholds: {
    [`http_req_duration{endpoint:${ep}}`]: [`p(95)<${__ENV.P95_MS || 500}`],
    [`http_req_failed{endpoint:${ep}}`]: [`rate<${__ENV.ERRORS || 0.5}`],
    [`http_reqs{endpoint:${ep}}`]: ["count==3"],
  },
};

export default function () {
  http.get(`http://127.0.0.1:18481/get?ep=${ep}`, { tags: { endpoint: ep } });
  http.get("http://127.0.0.1:18481/status/500", { tags: { endpoint: "other" } });
}
