// args: -u 1 -i 2
// A teardown that throws in a run whose threshold also failed: which exit code the CI sees.
import http from "k6/http";

export const options = { thresholds: { http_reqs: ["count>10"] } };

export default function () {
  http.get("http://127.0.0.1:18481/get");
}

export function teardown() {
  throw new Error("cleanup endpoint gone");
}
