// args: -i 2
// setup() throws after a request: no iteration runs, teardown never runs, exit 107.
import http from "k6/http";

export function setup() {
  http.get("http://127.0.0.1:18482/get?setup");
  throw new Error("no token");
}

export default function () {
  http.get("http://127.0.0.1:18481/get");
}

export function teardown() {
  http.get("http://127.0.0.1:18481/get?teardown");
}
