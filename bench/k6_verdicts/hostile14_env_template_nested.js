// args: -i 3 -e PREFIX=/anything
// env: HOST=127.0.0.1 PORT=18481
// URLs from template literals nesting __ENV with fallbacks; one variable never given.
import http from "k6/http";
import { check } from "k6";

const BASE = `http://${__ENV.HOST || "localhost"}:${__ENV.PORT ?? 80}`;

export const options = { thresholds: { "http_reqs{status:200}": ["count==3"], checks: ["rate==1"] } };

export default function () {
  const res = http.get(`${BASE}${__ENV.PREFIX}/${`vu${__VU}-${__ENV.MISSING || `iter${__ITER}`}`}`);
  check(res, { "path built": (r) => r.json("url").endsWith(`/anything/vu${__VU}-iter${__ITER}`) });
}
