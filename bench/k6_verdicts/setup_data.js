// args: -u 2 -i 8
// setup() logs in once (within setupTimeout) and every iteration uses its token.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { setupTimeout: "10s", teardownTimeout: "10s", thresholds: { checks: ["rate==1"] } };

export function setup() {
  const res = http.post(`${BASE}/login`, JSON.stringify({ user: "setup", password: "secret" }), {
    headers: { "Content-Type": "application/json" },
  });
  return { token: res.json("token") };
}

export default function (data) {
  check(data, { "has token": (d) => typeof d.token === "string" && d.token.length > 0 });
  http.get(`${BASE}/json`);
}
