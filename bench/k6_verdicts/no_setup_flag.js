// args: -i 2 --no-setup --no-teardown
// k6's --no-setup and --no-teardown: setup() and teardown() would throw; neither runs, the test passes.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { http_reqs: ["count==2"] } };

export function setup() {
  throw new Error("setup must not run");
}

export default function () {
  http.get(`${BASE}/get`);
}

export function teardown() {
  throw new Error("teardown must not run");
}
