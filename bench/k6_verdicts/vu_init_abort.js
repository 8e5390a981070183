// args: -u 3 -i 6
// Each VU takes its own account at init by __VU; a VU without one stops the test before it starts (k6
// initializes every VU before setup(), so no iteration runs: the thresholds judge an empty run).
import http from "k6/http";
import exec from "k6/execution";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const accounts = ["alice", "bob"];
const account = __VU === 0 ? null : accounts[__VU - 1];
if (__VU > 0 && account === undefined) exec.test.abort(`no account for VU ${__VU}`);

export const options = {
  thresholds: { http_reqs: ["count>0"], iterations: ["count>0"] },
};

export function setup() {
  http.get(`${BASE}/get?setup=1`);
}

export default function () {
  const res = http.get(`${BASE}/get?user=${account}`);
  check(res, { "is 200": (r) => r.status === 200 });
}
