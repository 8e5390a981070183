// args: --config data/runtime_options.json
// Request options a team keeps in its --config JSON (userAgent, maxRedirects, tags), not in the script.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export default function () {
  const res = http.get(`${BASE}/redirect/1`);
  check(res, {
    "redirect not followed": (r) => r.status === 302,
  });
  check(http.get(`${BASE}/get`), {
    "agent from config": (r) => r.json("headers.User-Agent") === "ci-agent/1.0",
  });
}
