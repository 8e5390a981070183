// env: K6_VUS=2 K6_ITERATIONS=6 K6_NO_TEARDOWN=true K6_USER_AGENT=team-agent/1.0
// K6_* variables over the script's own options: the VUs, the iterations, the user agent and no teardown.
import http from "k6/http";
import { check } from "k6";
import { Counter } from "k6/metrics";

const teardowns = new Counter("teardowns");

export const options = {
  vus: 5,
  iterations: 20,
  userAgent: "script-agent/0.1",
  thresholds: { iterations: ["count==6"], teardowns: ["count==0"], checks: ["rate==1"] },
};

export default function () {
  const res = http.get("http://127.0.0.1:18481/user-agent");
  check(res, { "agent from env": (r) => r.json("user-agent") === "team-agent/1.0" });
}

export function teardown() {
  teardowns.add(1);
}
