// args: -u 1 -i 1
// env: K6_SETUP_TIMEOUT=1s
// A setup() slower than K6_SETUP_TIMEOUT: the run ends at setup, as options.setupTimeout would end it.
import http from "k6/http";

export const options = { thresholds: { http_reqs: ["count>=1"] } };

export function setup() {
  http.get("http://127.0.0.1:18481/delay/3");
  return { ok: true };
}

export default function () {
  http.get("http://127.0.0.1:18481/get");
}
