// args: -u 1 -i 2
// options.hosts as a team maps service names: a bare name to 127.0.0.1 (the URL keeps its port) and a
// name:port to another port; the url tag keeps the name.
import http from "k6/http";
import { check } from "k6";

export const options = {
  hosts: { "api.ci.internal": "127.0.0.1", "auth.ci.internal:80": "127.0.0.1:18482" },
  thresholds: {
    "http_reqs{url:http://api.ci.internal:18481/get}": ["count==2"],
    "http_reqs{url:http://auth.ci.internal/get}": ["count==2"],
    checks: ["rate==1"],
  },
};

export default function () {
  const api = http.get("http://api.ci.internal:18481/get");
  const auth = http.get("http://auth.ci.internal/get");
  check(api, {
    "api answers": (r) => r.status === 200,
    "host header kept": (r) => r.json("headers.Host") === "api.ci.internal:18481",
  });
  check(auth, { "auth answers": (r) => r.status === 200 });
}
