// args: -i 4 --user-agent ci-bot/1.0 --discard-response-bodies
// k6's --user-agent and --discard-response-bodies flags: bodies dropped except where a request asks for text.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    checks: ["rate==1"],
    "http_reqs{name:echo}": ["count==4"],
  },
};

export default function () {
  const dropped = http.get(`${BASE}/get`);
  check(dropped, { "body discarded": (r) => r.body === null || r.body === undefined });
  const echo = http.get(`${BASE}/get`, { responseType: "text", tags: { name: "echo" } });
  check(echo, { "agent is the flag's": (r) => r.json("headers.User-Agent") === "ci-bot/1.0" });
}
