// args: -u 1 -i 2
// A custom Rate named as a built-in one of the same kind (k6 hands back the built-in), added to by hand
// beside the requests that feed it.
import http from "k6/http";
import { check } from "k6";
import { Rate } from "k6/metrics";

const failed = new Rate("http_req_failed");

export const options = { thresholds: { http_req_failed: ["rate<0.5"], checks: ["rate==1"] } };

export default function () {
  const res = http.get("http://127.0.0.1:18481/get");
  failed.add(res.status !== 200);
  failed.add(true);
  failed.add(true);
  check(res, { ok: (r) => r.status === 200 });
}
