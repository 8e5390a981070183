// args: -u 2 -i 6
// exec.vu.metrics.tags set per VU: each request and check after it carries the tag.
import http from "k6/http";
import { check } from "k6";
import exec from "k6/execution";

export const options = {
  thresholds: {
    "http_reqs{tier:odd}": ["count>0"],
    "http_reqs{tier:even}": ["count>0"],
    "http_reqs{tier:none}": ["count==0"],
    "checks{tier:odd}": ["rate==1"],
  },
};

export default function () {
  exec.vu.metrics.tags.tier = exec.vu.idInTest % 2 ? "odd" : "even";
  const res = http.get("http://127.0.0.1:18481/get");
  check(res, { "tagged ok": (r) => r.status === 200 });
}
