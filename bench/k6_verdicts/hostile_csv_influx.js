// args: -i 4 --out csv=/tmp/loadlab-k6-verdicts-hostile.csv.gz --out influxdb=http://127.0.0.1:8086/k6
// k6's CSV (gzipped) and InfluxDB outputs as team repositories pass them, no InfluxDB listening: k6 logs
// "Couldn't write stats" and runs on.
import http from "k6/http";
import { check, group } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  group("api", () => check(http.get(`${BASE}/get`), { "200": (r) => r.status === 200 }));
}
