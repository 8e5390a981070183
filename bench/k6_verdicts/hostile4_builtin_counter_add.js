// args: -u 1 -i 3
// `new Counter("http_reqs")` added to for each cache hit a script answers itself, and a Rate named
// http_req_failed fed by a business rule (k6 adds both to its built-ins); thresholds counting both.
import http from "k6/http";
import { Counter, Rate } from "k6/metrics";

const reqs = new Counter("http_reqs");
const failed = new Rate("http_req_failed");
export const options = { thresholds: { http_reqs: ["count==6"], http_req_failed: ["rate>0.4", "rate<0.6"] } };

export default function () {
  const res = http.get("http://127.0.0.1:18481/get");
  reqs.add(1, { cache: "hit" });
  failed.add(res.json("args.missing") === undefined);
}
