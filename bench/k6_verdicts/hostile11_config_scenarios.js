// args: --config data/h11_scenarios.json
// Scenarios and thresholds from a --config JSON over the script's own options; each scenario's exec.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { vus: 5, duration: "10s", thresholds: { http_reqs: ["count>0"] } };

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
}
