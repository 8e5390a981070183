// args: -u 2 -i 8
// exec.vu.metrics.tags set and deleted mid-iteration (a phase tag), thresholds on the tagged requests and
// checks; exec.vu.tags read back.
import http from "k6/http";
import exec from "k6/execution";
import { check } from "k6";

export const options = {
  thresholds: {
    "http_reqs{phase:login}": ["count==8"],
    "http_reqs{phase:browse}": ["count==16"],
    "checks{phase:browse}": ["rate==1"],
    "http_reqs{phase:none}": ["count==0"],
  },
};

export default function () {
  exec.vu.metrics.tags.phase = "login";
  http.post("http://127.0.0.1:18481/post", { user: `u${exec.vu.idInTest}` });
  exec.vu.metrics.tags.phase = "browse";
  for (let k = 0; k < 2; k++) {
    const res = http.get(`http://127.0.0.1:18481/get?item=${k}`);
    check(res, { "item ok": (r) => r.status === 200, "tag read": () => exec.vu.tags.phase === "browse" });
  }
  delete exec.vu.metrics.tags.phase;
  http.get("http://127.0.0.1:18482/get?untagged=1");
}
