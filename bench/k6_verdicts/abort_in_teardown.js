// args: -i 4
// exec.test.abort() in teardown after the load ran: k6 marks the test aborted.
import http from "k6/http";
import { check } from "k6";
import exec from "k6/execution";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18482";

export const options = {
  thresholds: { http_reqs: ["count>=4"], checks: ["rate==1"] },
};

export default function () {
  check(http.get(`${BASE}/json`), { ok: (r) => r.status === 200 });
}

export function teardown() {
  const res = http.get(`${BASE}/nope`);
  if (res.status !== 200) exec.test.abort(`cleanup failed: ${res.status}`);
}
