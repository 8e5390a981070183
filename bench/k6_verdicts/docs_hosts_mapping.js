// args: -u 1 -i 3
// k6's documentation's options.hosts: a name and a name with its port sent to the local servers; the URL
// and the Host header keep the name.
import http from "k6/http";
import { check } from "k6";

export const options = {
  hosts: {
    "test.k6.io": "127.0.0.1:18481",
    "api.example.com:8080": "127.0.0.1:18482",
  },
  thresholds: {
    checks: ["rate==1"],
    "http_reqs{url:http://test.k6.io/get}": ["count==3"],
  },
};

export default function () {
  const one = http.get("http://test.k6.io/get");
  check(one, {
    "answered": (r) => r.status === 200,
    "url keeps the name": (r) => r.url === "http://test.k6.io/get",
    "host header keeps the name": (r) => r.json("headers.Host") === "test.k6.io",
    "remote ip": (r) => r.remote_ip === "127.0.0.1" && r.remote_port === 18481,
  });
  const two = http.get("http://api.example.com:8080/get?x=1");
  check(two, {
    "port mapped": (r) => r.remote_port === 18482 && r.json("args.x") === "1",
    "host with port": (r) => r.json("headers.Host") === "api.example.com:8080",
  });
}
