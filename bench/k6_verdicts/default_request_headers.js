// args: -i 2
// The headers a request carries by itself (Accept-Encoding) and a User-Agent the script sets (loadlab's own
// agent names loadlab, not k6: a check on k6's name is left out).
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const plain = http.get(`${BASE}/get`);
  const own = http.get(`${BASE}/get`, {
    headers: { "User-Agent": "team-probe/2" },
  });
  check(plain, {
    "gzip offered": (r) => r.json("headers.Accept-Encoding") === "gzip",
  });
  check(own, {
    "own agent": (r) => r.json("headers.User-Agent") === "team-probe/2",
  });
}
