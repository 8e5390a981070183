// options.scenarios built by a function over a list of flows; thresholds built in a loop over endpoints.
import http from "k6/http";
import { check } from "k6";

const FLOWS = [
  { name: "browse", path: "/get", iterations: 4 },
  { name: "search", path: "/anything/search", iterations: 3 },
  { name: "status", path: "/status/204", iterations: 2 },
];

function buildScenarios(flows) {
  const out = {};
  for (const f of flows) {
    out[f.name] = {
      executor: "shared-iterations",
      vus: 1,
      iterations: f.iterations,
      exec: "run",
      env: { PATH_: f.path },
    };
  }
  return out;
}

function buildThresholds(flows) {
  const t = { checks: ["rate==1"] };
  for (const f of flows) {
    t[`http_reqs{scenario:${f.name}}`] = [`count==${f.iterations}`];
    t[`http_req_duration{scenario:${f.name}}`] = ["p(95)<3000"];
  }
  return t;
}

export const options = { scenarios: buildScenarios(FLOWS), thresholds: buildThresholds(FLOWS) };

export function run() {
  const res = http.get(`http://127.0.0.1:18481${__ENV.PATH_}`);
  check(res, { "2xx": (r) => r.status >= 200 && r.status < 300 });
}
