// args: -i 4
// setup() logs in once and hands the token to every iteration; thresholds count every request k6 sends.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: { http_reqs: ["count==6"], "http_reqs{name:login}": ["count==1"], checks: ["rate==1"] },
};

export function setup() {
  const res = http.post(`${BASE}/login`, JSON.stringify({ user: "ann", password: "secret" }), {
    headers: { "Content-Type": "application/json" },
    tags: { name: "login" },
  });
  return { token: res.json("token") };
}

export default function (data) {
  const res = http.get(`${BASE}/json`, { headers: { Authorization: `Bearer ${data.token}` } });
  check(res, { "got json": (r) => r.status === 200 });
}

export function teardown() {
  http.get(`${BASE}/json`, { tags: { name: "teardown" } });
}
