// args: -i 2
// options.hosts with a wildcard entry and an exact one, each naming a port.
import http from "k6/http";
import { check } from "k6";

export const options = {
  hosts: { "*.svc.local": "127.0.0.1:18481", "target.local": "127.0.0.1:18482" },
  thresholds: { "http_reqs{status:200}": ["count==4"], checks: ["rate==1"] },
};

export default function () {
  const a = http.get("http://users.svc.local/get");
  const b = http.get("http://target.local/json");
  check(a, { "wildcard host answered": (r) => r.status === 200 });
  check(b, { "exact host answered": (r) => r.status === 200 });
}
