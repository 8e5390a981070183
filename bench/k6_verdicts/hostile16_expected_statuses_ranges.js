// args: -i 1
// expectedStatuses with several ranges in options-less code, failing as the ranges leave 302 out.
import http from "k6/http";

http.setResponseCallback(http.expectedStatuses({ min: 200, max: 204 }, { min: 400, max: 404 }));

export const options = { thresholds: { http_req_failed: ["rate==0"] } };

export default function () {
  http.get("http://127.0.0.1:18481/status/204");
  http.get("http://127.0.0.1:18481/status/403");
  http.get("http://127.0.0.1:18481/status/302", { redirects: 0 });
}
