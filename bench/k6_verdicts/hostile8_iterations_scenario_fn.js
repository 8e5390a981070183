// env: LOAD=smoke
// A load profile named by env chooses among scenario builders; an unknown name throws in init code.
import http from "k6/http";
import { check } from "k6";

const profiles = {
  smoke: () => ({ smoke: { executor: "per-vu-iterations", vus: 2, iterations: 2, maxDuration: "10s" } }),
  load: () => ({ load: { executor: "constant-vus", vus: 5, duration: "30s" } }),
};
const build = profiles[__ENV.LOAD];
if (!build) throw new Error(`unknown LOAD ${__ENV.LOAD}`);

export const options = {
  scenarios: build(),
  thresholds: { "iterations{scenario:smoke}": ["count==4"], checks: ["rate==1"] },
};

export default function () {
  check(http.get("http://127.0.0.1:18482/"), { up: (r) => r.status === 200 });
}
