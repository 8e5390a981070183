// Module-scope state of a local library module changed by VU code: a call counter, a cached token and an
// exported array. Each k6 VU has its own copy of every module, so each VU fetches its token once.
import http from "k6/http";
import { check } from "k6";
import { Counter } from "k6/metrics";
import { keepToken, nextCall, seen, token } from "./lib/h6/counter.js";

const logins = new Counter("logins");

export const options = {
  scenarios: { each: { executor: "per-vu-iterations", vus: 3, iterations: 3 } },
  thresholds: { logins: ["count==3"], checks: ["rate==1"] },
};

export default function () {
  if (token() === null) {
    logins.add(1);
    keepToken(http.post("http://127.0.0.1:18481/post", JSON.stringify({ vu: __VU })).json("json.vu"));
  }
  const t = token();
  seen.push(__ITER);
  http.get(`http://127.0.0.1:18482/get?vu=${t}`);
  check(null, {
    "own calls": () => nextCall() === __ITER + 1,
    "own token": () => t === __VU,
    "own pages": () => seen.length === __ITER + 1,
  });
}
