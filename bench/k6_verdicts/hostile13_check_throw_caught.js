// args: -u 1 -i 3
// A check whose callback throws, the throw caught by the script: the check fails and the iteration goes on.
import http from "k6/http";
import { check } from "k6";
import { Counter } from "k6/metrics";

const after = new Counter("after_check");

export const options = {
  thresholds: { after_check: ["count==3"], "checks{check:parses}": ["rate==0"], http_reqs: ["count==6"] },
};

export default function () {
  const res = http.get("http://127.0.0.1:18481/html");
  try {
    check(res, { parses: (r) => r.json().ok === true });
  } catch (_e) {
    http.get("http://127.0.0.1:18482/get?caught=1");
  }
  after.add(1);
}
