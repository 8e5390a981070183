// args: -u 1 -i 2
// env: K6_THROW=true
// `K6_THROW=true`: a refused connection throws where the request is made; the script catches it.
import http from "k6/http";
import { check } from "k6";
import { Counter } from "k6/metrics";

const thrown = new Counter("thrown");

export const options = { thresholds: { thrown: ["count==2"], checks: ["rate==1"] } };

export default function () {
  try {
    http.get("http://127.0.0.1:1/health");
  } catch (e) {
    thrown.add(1);
    check(String(e), { "names the dial": (m) => m.includes("127.0.0.1:1") });
  }
  check(http.get("http://127.0.0.1:18481/status/404"), { "404 does not throw": (r) => r.status === 404 });
}
