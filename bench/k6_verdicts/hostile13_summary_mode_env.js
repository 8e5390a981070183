// args: -u 1 -i 2
// env: K6_SUMMARY_MODE=disabled
// The summary turned off from the CI's environment: k6 writes no summary export, the thresholds still judged.
import http from "k6/http";

export const options = { thresholds: { http_reqs: ["count==3"] } };

export default function () {
  http.get("http://127.0.0.1:18481/get");
}
