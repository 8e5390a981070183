// args: -i 2
// exec.test.abort() in teardown(): the test has run; k6 ends with the abort's code.
import http from "k6/http";
import exec from "k6/execution";

export const options = { thresholds: { http_reqs: ["count==2"] } };

export default function () {
  http.get("http://127.0.0.1:18482/json");
}

export function teardown() {
  exec.test.abort("teardown found a problem");
}
