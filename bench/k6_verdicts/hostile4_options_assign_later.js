// args: -e STRICT=1
// Options built by Object.assign from defaults, then changed after the export (a threshold added when a
// variable is set): k6 reads the options object as the init code leaves it.
import http from "k6/http";
import { check } from "k6";

const defaults = { vus: 1, iterations: 2, thresholds: { http_req_failed: ["rate<0.01"] } };
export const options = Object.assign({}, defaults, { iterations: 4, tags: { suite: "smoke" } });
if (__ENV.STRICT) {
  options.thresholds["http_reqs{suite:smoke}"] = ["count==4"];
  options.thresholds["checks"] = ["rate==1"];
}

export default function () {
  const res = http.get("http://127.0.0.1:18481/get?x=1");
  check(res, { "status 200": (r) => r.status === 200 });
}
