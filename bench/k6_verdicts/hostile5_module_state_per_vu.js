// Per-VU state kept in module scope: a counter, a cache and a token fetched once per VU. Each k6 VU has
// its own copy of the module: every VU logs in once and counts only its own iterations.
import http from "k6/http";
import { check } from "k6";
import { Counter } from "k6/metrics";

const logins = new Counter("logins");
let iterationsHere = 0;
let token = null;
const seen = new Set();

export const options = {
  scenarios: { each: { executor: "per-vu-iterations", vus: 3, iterations: 4 } },
  thresholds: { logins: ["count==3"], checks: ["rate==1"] },
};

export default function () {
  if (token === null) {
    token = http.post("http://127.0.0.1:18481/post", JSON.stringify({ vu: __VU })).json("json.vu");
    logins.add(1);
  }
  iterationsHere++;
  seen.add(__ITER);
  http.get(`http://127.0.0.1:18481/get?vu=${token}`);
  check(null, {
    "own count": () => iterationsHere === __ITER + 1,
    "own token": () => token === __VU,
    "own set": () => seen.size === __ITER + 1,
  });
}
