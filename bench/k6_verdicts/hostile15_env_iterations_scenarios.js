// args:
// env: K6_ITERATIONS=3
// K6_ITERATIONS beside scenarios the script declares: k6's rule for a shortcut over scenarios decides.
import http from "k6/http";

export const options = {
  scenarios: { mine: { executor: "per-vu-iterations", vus: 2, iterations: 5 } },
  thresholds: { iterations: ["count==3"] },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
}
