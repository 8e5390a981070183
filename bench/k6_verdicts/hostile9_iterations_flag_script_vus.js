// args: --iterations 5
// --iterations with the script's vus: shared-iterations over the script's 2 VUs.
import http from "k6/http";
import exec from "k6/execution";
import { check } from "k6";

export const options = {
  vus: 2,
  duration: "20s",
  thresholds: { iterations: ["count==5"], checks: ["rate==1"] },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
  check(exec.test.options.scenarios.default, {
    "shared iterations": (s) => s.executor === "shared-iterations" && s.vus === 2 && s.iterations === 5,
  });
}
