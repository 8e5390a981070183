// args: --env KIND=global --env=REGION=eu -e QUERY=a=b&c=d
// A scenario's env outranks -e for its own VUs; -e values keep every "=" after the first; the long
// `--env=NAME=VALUE` form.
import http from "k6/http";
import { check } from "k6";

export const options = {
  scenarios: {
    mobile: {
      executor: "shared-iterations",
      iterations: 2,
      exec: "flow",
      env: { KIND: "mobile" },
      tags: { flow: "mobile" },
    },
    web: { executor: "shared-iterations", iterations: 2, exec: "flow", tags: { flow: "web" } },
  },
  thresholds: {
    "checks{flow:mobile}": ["rate==1"],
    "checks{flow:web}": ["rate==1"],
    "http_reqs{kind:mobile}": ["count==2"],
    "http_reqs{kind:global}": ["count==2"],
  },
};

export function flow() {
  const res = http.get(`http://127.0.0.1:18481/get?kind=${__ENV.KIND}`, { tags: { kind: __ENV.KIND } });
  const expected = res.request.url.includes("mobile") ? "mobile" : "global";
  check(res, {
    "kind as the scenario says": (r) => r.json("args.kind") === expected,
    "region from the long form": () => __ENV.REGION === "eu",
    "query keeps its equals": () => __ENV.QUERY === "a=b&c=d",
  });
}
