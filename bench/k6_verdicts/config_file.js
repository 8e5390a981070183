// args: --config data/options.json -e BASE_URL=http://127.0.0.1:18482
// The load and a threshold from a --config file, -e giving the server; the script's own threshold too.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  check(http.get(`${BASE}/json`), { "json is 200": (r) => r.status === 200 });
}
