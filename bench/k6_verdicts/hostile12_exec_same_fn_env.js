// args:
// Two scenarios running one exported function, told apart by their env and tags.
import http from "k6/http";
import { check } from "k6";

export const options = {
  scenarios: {
    eu: {
      executor: "shared-iterations",
      vus: 1,
      iterations: 2,
      exec: "region",
      env: { REGION: "eu" },
      tags: { zone: "eu" },
    },
    us: {
      executor: "shared-iterations",
      vus: 1,
      iterations: 3,
      exec: "region",
      env: { REGION: "us" },
      tags: { zone: "us" },
    },
  },
  thresholds: {
    "http_reqs{zone:eu}": ["count==2"],
    "http_reqs{zone:us}": ["count==3"],
    "checks{scenario:us}": ["rate==1"],
    "iterations{scenario:eu}": ["count==2"],
  },
};

export function region() {
  const res = http.get(`http://127.0.0.1:18481/get?region=${__ENV.REGION}`);
  check(res, { "region echoed": (r) => r.json("args.region") === __ENV.REGION });
}
