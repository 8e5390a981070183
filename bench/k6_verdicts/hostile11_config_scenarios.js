// args: --config data/h11_scenarios.json
// A --config JSON of scenarios beside the script's own vus and duration: k6 runs the script's (its options
// over the file's), the default function paced; the file's thresholds are replaced by the script's.
import http from "k6/http";
import { check, sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { vus: 2, duration: "2s", thresholds: { http_reqs: ["count>0"] } };

export function browse() {
  http.get(`${BASE}/get?page=browse`);
}

export function buy() {
  const res = http.post(`${BASE}/post`, JSON.stringify({ sku: 7 }), {
    headers: { "Content-Type": "application/json" },
  });
  check(res, { "bought": (r) => r.json("json.sku") === 7 });
}

export default function () {
  http.get(`${BASE}/get?page=default`);
  sleep(0.2);
}
