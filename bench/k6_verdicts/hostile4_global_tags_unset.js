// args: -u 1 -i 3 --tag env=ci
// Test-wide tags from options and from --tag, thresholds on a tag the script never sets (judged empty),
// on the option's tag and on the flag's.
import http from "k6/http";
import { check } from "k6";

export const options = {
  tags: { team: "core" },
  thresholds: {
    "http_reqs{team:core}": ["count==3"],
    "http_reqs{env:ci}": ["count==3"],
    "http_req_duration{region:eu}": ["max<1"],
    "checks{team:web}": ["rate==1"],
  },
};

export default function () {
  const res = http.get("http://127.0.0.1:18481/get");
  check(res, { ok: (r) => r.status === 200 });
}
