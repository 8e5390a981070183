// args: -u 1 -i 3 --user-agent team-suite/2.0
// noConnectionReuse and a user agent: each request's connection is new; the agent reaches the server.
import http from "k6/http";
import { check } from "k6";

export const options = {
  noConnectionReuse: true,
  noVUConnectionReuse: true,
  thresholds: { http_req_connecting: ["max>=0"], http_reqs: ["count==6"], checks: ["rate==1"] },
};

export default function () {
  const a = http.get("http://127.0.0.1:18481/user-agent");
  const b = http.get("http://127.0.0.1:18481/headers", { headers: { "User-Agent": "override/1" } });
  check(null, {
    "agent from flag": () => a.json("user-agent") === "team-suite/2.0",
    "header wins": () => b.json("headers.User-Agent") === "override/1",
  });
}
