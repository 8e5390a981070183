// args: --config data/scenarios.json
// The team keeps scenarios and thresholds in a --config JSON; the script exports only its functions.
import http from "k6/http";
import { check, sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export default function () {
  http.get(`${BASE}/get`);
  sleep(0.2);
}

export function buy() {
  check(http.post(`${BASE}/post`, "sku=1"), { bought: (r) => r.status === 200 });
}
