// args: -i 6
// Requests to two servers, named in the script: each must reach its own.
import http from "k6/http";
import { check } from "k6";

export const options = {
  thresholds: { "http_reqs{name:http://127.0.0.1:18482/json}": ["count==6"] },
};

export default function () {
  check(http.get("http://127.0.0.1:18481/json"), { "a is 200": (r) => r.status === 200 });
  check(http.get("http://127.0.0.1:18482/json"), { "b is 200": (r) => r.status === 200 });
}
