// args:
// env: K6_ITERATIONS=3 K6_VUS=1 K6_USER_AGENT=pipeline-k6/1 K6_NO_CONNECTION_REUSE=true K6_MAX_REDIRECTS=0
// A CI job that sets k6's flags by K6_* variables: agent, connection reuse and redirects.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"], "http_reqs{status:302}": ["count==3"] } };

export default function () {
  const ua = http.get("http://127.0.0.1:18481/user-agent");
  const hop = http.get("http://127.0.0.1:18481/redirect/1");
  check(ua, { "agent from K6_USER_AGENT": (r) => r.json("user-agent") === "pipeline-k6/1" });
  check(hop, { "redirect not followed": (r) => r.status === 302 });
}
