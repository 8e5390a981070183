// args: -u 1 -i 3
// Group names built from an API's method and path with "::" between them (k6 reserves it): the group
// call throws, the iteration ends there; the request before it still counts.
import http from "k6/http";
import { check, group } from "k6";

const ENDPOINTS = [["GET", "/get"]];

export const options = { thresholds: { http_reqs: ["count==3"] } };

export default function () {
  check(http.get("http://127.0.0.1:18481/get?first=1"), { first: (r) => r.status === 200 });
  for (const [method, path] of ENDPOINTS) {
    group(`${method}::${path}`, () => {
      check(http.get(`http://127.0.0.1:18481${path}`), { inner: (r) => r.status === 200 });
    });
  }
}
