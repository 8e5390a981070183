// args: -u 2 -i 10
// A helper module beside the script, as teams share login code.
import http from "k6/http";
import { check } from "k6";
import { login } from "./lib/auth.js";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const token = login(BASE, `user${__VU}`);
  const me = http.get(`${BASE}/me`, { headers: { Authorization: `Bearer ${token}` } });
  check(me, { "me is 200": (r) => r.status === 200 });
}
