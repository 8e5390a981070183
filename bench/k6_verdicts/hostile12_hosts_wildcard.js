// args: -u 1 -i 2
// options.hosts with a wildcard entry, as a team maps every service of a test domain to one box.
import http from "k6/http";
import { check } from "k6";

export const options = {
  hosts: { "*.svc.test": "127.0.0.1:18481" },
  thresholds: { checks: ["rate==1"], "http_reqs{url:http://orders.svc.test/get}": ["count==2"] },
};

export default function () {
  const a = http.get("http://orders.svc.test/get");
  const b = http.get("http://users.svc.test/anything/u");
  check(a, { "orders mapped": (r) => r.status === 200 && r.json("headers.Host") === "orders.svc.test" });
  check(b, { "users mapped": (r) => r.status === 200 });
}
