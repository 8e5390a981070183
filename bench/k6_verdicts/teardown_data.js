// args: -u 2 -i 4
// teardown(data) logs out with the session setup() made; thresholds on each phase's named requests.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    "http_reqs{name:login}": ["count==1"],
    "http_reqs{name:logout}": ["count==1"],
    "http_reqs{name:me}": ["count==4"],
    "checks{check:logout sees the run id}": ["rate==1"],
  },
};

export function setup() {
  const res = http.post(`${BASE}/login`, JSON.stringify({ user: "ops", password: "secret" }), {
    headers: { "Content-Type": "application/json" },
    tags: { name: "login" },
  });
  return { token: res.json("token"), runId: `run-${Date.now() % 1000}` };
}

export default function (data) {
  http.get(`${BASE}/get?token=${data.token}`, { tags: { name: "me" } });
}

export function teardown(data) {
  const res = http.get(`${BASE}/get?run=${data.runId}`, { tags: { name: "logout" } });
  check(res, { "logout sees the run id": (r) => r.json("args.run") === data.runId });
}
