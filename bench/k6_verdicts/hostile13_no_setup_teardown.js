// args: -u 1 -i 2 --no-setup --no-teardown
// --no-setup and --no-teardown: the default function gets no data, teardown's requests are not sent.
import http from "k6/http";
import { check } from "k6";

export const options = {
  thresholds: {
    "http_reqs{name:setup}": ["count==0"],
    "http_reqs{name:teardown}": ["count==0"],
    checks: ["rate==1"],
  },
};

export function setup() {
  http.get("http://127.0.0.1:18482/get", { tags: { name: "setup" } });
  return { token: "abc" };
}

export default function (data) {
  check(data, { "no data": (d) => d === undefined });
  http.get("http://127.0.0.1:18481/get");
}

export function teardown() {
  http.get("http://127.0.0.1:18482/get", { tags: { name: "teardown" } });
}
