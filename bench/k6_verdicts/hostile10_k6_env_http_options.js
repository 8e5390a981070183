// args: -u 1 -i 2
// env: K6_USER_AGENT=ci-bot/2 K6_MAX_REDIRECTS=1 K6_DISCARD_RESPONSE_BODIES=true K6_NO_CONNECTION_REUSE=true
// HTTP options from k6's variables, as a CI job's environment sets them for every test it runs.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const ua = http.get("http://127.0.0.1:18481/user-agent", { responseType: "text" });
  check(ua, { "agent from K6_USER_AGENT": (r) => r.json("user-agent") === "ci-bot/2" });
  const far = http.get("http://127.0.0.1:18481/redirect/3");
  check(far, { "stopped after one redirect": (r) => r.status === 302 });
  const near = http.get("http://127.0.0.1:18481/redirect/1");
  check(near, { "one redirect followed": (r) => r.status === 200 && r.body === null });
}
