// args:
// exec.test.abort() stops the whole test at once: k6 exits 108.
import http from "k6/http";
import exec from "k6/execution";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { vus: 1, duration: "20s" };

export default function () {
  http.get(`${BASE}/json`);
  if (exec.scenario.iterationInTest >= 3) exec.test.abort("enough");
}
