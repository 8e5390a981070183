// args: -u 2 -i 4
// setup() logging in and throwing when the token is missing: no iteration runs, teardown() does not run,
// k6's exit code for a script error.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { http_reqs: ["count>=1"] } };

export function setup() {
  const res = http.post(`${BASE}/post`, JSON.stringify({ user: "a" }), {
    headers: { "Content-Type": "application/json" },
  });
  const token = res.json("json.token");
  if (!token) throw new Error(`login failed: no token in ${res.status} response`);
  return { token };
}

export default function (data) {
  http.get(`${BASE}/get`, { headers: { Authorization: `Bearer ${data.token}` } });
}

export function teardown() {
  http.get(`${BASE}/get?teardown=1`);
}
