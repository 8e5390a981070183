// args: -u 2 -i 4
// Callbacks that send requests kept by a local module (a hook list, an error handler) and called later.
import http from "k6/http";
import { check } from "k6";
import { beforeEach, report, runBefore, whenFailed } from "./lib/h8/hooks.js";

beforeEach(() => http.get("http://127.0.0.1:18481/get?hook=login"));
beforeEach(() => http.get("http://127.0.0.1:18481/get?hook=warm"));
whenFailed((res) => http.post("http://127.0.0.1:18481/post", JSON.stringify({ failed: res.status })));

export const options = {
  thresholds: { http_reqs: ["count==16"], "http_reqs{method:POST}": ["count==4"], checks: ["rate==1"] },
};

export default function () {
  runBefore();
  const res = http.get("http://127.0.0.1:18481/status/503");
  const reported = report(res);
  check(reported, { "failure reported": (r) => r !== null && r.json("json.failed") === 503 });
}
