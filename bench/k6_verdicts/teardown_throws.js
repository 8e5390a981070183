// args: -u 2 -i 4
// teardown() finds the cleanup answered badly and throws: k6 exits 107 after a run that passed.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { http_req_failed: ["rate<0.5"], checks: ["rate==1"] } };

export default function () {
  check(http.get(`${BASE}/json`), { "json 200": (r) => r.status === 200 });
}

export function teardown() {
  const res = http.get(`${BASE}/validate?id=bad`, { tags: { name: "cleanup" } });
  if (res.status !== 200) throw new Error(`cleanup answered ${res.status}`);
}
