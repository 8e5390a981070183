// args:
// A checks gate per scenario and check name, both tags in one selector.
import http from "k6/http";
import { check } from "k6";

export const options = {
  scenarios: {
    api: { executor: "per-vu-iterations", vus: 1, iterations: 3 },
    web: { executor: "per-vu-iterations", vus: 1, iterations: 2, exec: "web" },
  },
  thresholds: {
    "checks{scenario:api,check:status ok}": ["rate==1"],
    "checks{scenario:web,check:status ok}": ["rate==0"],
    "checks{check:status ok}": ["rate>0.5", "rate<0.7"],
  },
};

export default function () {
  check(http.get("http://127.0.0.1:18481/get"), { "status ok": (r) => r.status === 200 });
}

export function web() {
  check(http.get("http://127.0.0.1:18481/status/500"), { "status ok": (r) => r.status === 200 });
}
