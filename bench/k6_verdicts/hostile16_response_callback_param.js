// args: -i 2
// A request's own responseCallback over the global one, and responseCallback: null (judged by none).
import http from "k6/http";

http.setResponseCallback(http.expectedStatuses(200));

export const options = { thresholds: { http_req_failed: ["rate==0.25"] } };

export default function () {
  http.get("http://127.0.0.1:18481/status/201", { responseCallback: http.expectedStatuses(201) });
  http.get("http://127.0.0.1:18481/status/503", { responseCallback: null });
  http.get("http://127.0.0.1:18481/status/201");
}
