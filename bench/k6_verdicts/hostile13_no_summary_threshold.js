// args: -u 1 -i 2 --no-summary
// --no-summary with a failing threshold: no summary and no export, and still exit 99.
import http from "k6/http";

export const options = { thresholds: { http_reqs: ["count>100"] } };

export default function () {
  http.get("http://127.0.0.1:18481/get");
}

export function handleSummary() {
  return { stdout: "handled\n" };
}
