// args: -i 3
// Namespace imports of k6's modules: `import * as http`, `import * as k6`.
import * as http from "k6/http";
import * as k6 from "k6";
import * as metrics from "k6/metrics";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const hits = new metrics.Counter("hits");

export const options = { thresholds: { hits: ["count==3"], checks: ["rate==1"] } };

export default function () {
  const res = http.get(`${BASE}/json`);
  k6.check(res, { "200": (r) => r.status === 200 });
  hits.add(1);
  k6.sleep(0.01);
}
