// args: -u 1 -i 3
// A Basic Authorization header built with btoa, as a browser developer writes it: k6 has no btoa (its
// k6/encoding has b64encode), so every iteration throws before its request.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { http_reqs: ["count>0"] } };

export default function () {
  const token = btoa("user:passwd");
  const res = http.get("http://127.0.0.1:18481/basic-auth/user/passwd", {
    headers: { Authorization: `Basic ${token}` },
  });
  check(res, { authed: (r) => r.status === 200 });
}
