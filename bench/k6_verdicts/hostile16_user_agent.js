// args: -i 2
// userAgent from options, and a request's own User-Agent header over it.
import http from "k6/http";
import { check } from "k6";

export const options = { userAgent: "team-bot/2.1 (+ci)", thresholds: { checks: ["rate==1"] } };

export default function () {
  const res = http.get("http://127.0.0.1:18481/user-agent");
  check(res, { "from options": (r) => r.json("user-agent") === "team-bot/2.1 (+ci)" });
  const own = http.get("http://127.0.0.1:18481/user-agent", { headers: { "User-Agent": "mine" } });
  check(own, { "own header": (r) => r.json("user-agent") === "mine" });
}
