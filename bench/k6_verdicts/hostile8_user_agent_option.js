// args: -u 1 -i 2
// options.userAgent, and an empty one (no header sent), in two scenarios' own options via env.
import http from "k6/http";
import { check } from "k6";

export const options = {
  userAgent: "Mozilla/5.0 (team) k6-load",
  thresholds: { checks: ["rate==1"], http_reqs: ["count==4"] },
};

export default function () {
  const res = http.get("http://127.0.0.1:18481/user-agent");
  const h = http.get("http://127.0.0.1:18481/headers");
  check(null, {
    "agent option": () => res.json("user-agent") === "Mozilla/5.0 (team) k6-load",
    "header too": () => h.json("headers.User-Agent") === "Mozilla/5.0 (team) k6-load",
  });
}
