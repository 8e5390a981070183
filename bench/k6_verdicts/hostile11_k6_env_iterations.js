// args:
// env: K6_VUS=2 K6_ITERATIONS=6
// A CI job's K6_VUS and K6_ITERATIONS set the load; the script has no options of its own but thresholds.
import http from "k6/http";
import exec from "k6/execution";
import { check } from "k6";

export const options = { thresholds: { iterations: ["count==6"], vus_max: ["value==2"] } };

export default function () {
  const res = http.get("http://127.0.0.1:18481/get");
  check(res, { ok: (r) => r.status === 200, "shared iterations": () => exec.scenario.name === "default" });
}
