// args: -u 2 -i 4
// Callbacks that send requests handed to a local module's functions: a retry helper and a token cache.
import http from "k6/http";
import { check } from "k6";
import { token, withRetry } from "./lib/h7/retry.js";

export const options = { thresholds: { http_reqs: ["count>=8"], checks: ["rate==1"] } };

export default function () {
  const t = token(() => http.post("http://127.0.0.1:18481/post", JSON.stringify({ user: `u${__VU}` })));
  const res = withRetry(() => http.get(`http://127.0.0.1:18481/get?t=${t}`), 3);
  const failed = withRetry(() => http.get("http://127.0.0.1:18481/status/503"), 2);
  check(res, {
    "answered": (r) => r.status === 200,
    "token sent": (r) => r.json("args.t") === `u${__VU}`,
    "retried to the end": () => failed.status === 503,
  });
}
