// args: -u 1 -i 3
// options.throw: a refused connection throws; the team catches it, counts it and goes on.
import http from "k6/http";
import { check } from "k6";
import { Counter } from "k6/metrics";

const refused = new Counter("refused_calls");

export const options = {
  throw: true,
  thresholds: { refused_calls: ["count==3"], http_req_failed: ["rate>0.4"], checks: ["rate==1"] },
};

export default function () {
  let caught = "";
  try {
    http.get("http://127.0.0.1:1/health");
  } catch (e) {
    caught = String(e);
    refused.add(1);
  }
  check(caught, { "error names the refusal": (s) => s.includes("connection refused") });
  const ok = http.get("http://127.0.0.1:18481/get");
  check(ok, { "next request answered": (r) => r.status === 200 });
}
