// args: -u 1 -i 2 --summary-mode disabled
// The summary turned off with --summary-mode disabled beside --summary-export: the export still written.
import http from "k6/http";

export const options = { thresholds: { http_reqs: ["count==2"] } };

export default function () {
  http.get("http://127.0.0.1:18481/get");
}
