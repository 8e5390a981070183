// args:
// setup() logs in once and hands the token to every iteration; teardown() logs out with it.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
export const options = {
  vus: 2,
  iterations: 4,
  thresholds: { "checks{check:authorized}": ["rate==1"], http_reqs: ["count==6"] },
};

export function setup() {
  const res = http.post(`${BASE}/post`, JSON.stringify({ user: "ci" }), {
    headers: { "Content-Type": "application/json" },
  });
  return { token: `tok-${res.json("json.user")}`, started: Date.now() };
}

export default function (data) {
  const res = http.get(`${BASE}/headers`, { headers: { Authorization: `Bearer ${data.token}` } });
  check(res, { authorized: (r) => r.json("headers.Authorization") === "Bearer tok-ci" });
}

export function teardown(data) {
  http.del(`${BASE}/delete?token=${data.token}`);
}
