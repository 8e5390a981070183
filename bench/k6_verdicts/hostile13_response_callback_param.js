// args: -u 1 -i 2
// A per-request responseCallback over the global one, and responseCallback: null leaving a request unjudged.
import http from "k6/http";

http.setResponseCallback(http.expectedStatuses(200));

export const options = {
  thresholds: {
    http_req_failed: ["rate==0.5"],
    "http_req_failed{name:created}": ["rate==0"],
    "http_req_failed{name:unjudged}": ["rate==0"],
  },
};

export default function () {
  http.get("http://127.0.0.1:18481/status/201", {
    tags: { name: "created" },
    responseCallback: http.expectedStatuses(201),
  });
  http.get("http://127.0.0.1:18481/status/503", { tags: { name: "unjudged" }, responseCallback: null });
  http.get("http://127.0.0.1:18481/status/502", { tags: { name: "bad" } });
  http.get("http://127.0.0.1:18481/get", { tags: { name: "ok" } });
}
