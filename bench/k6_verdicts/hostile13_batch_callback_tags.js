// args: -u 1 -i 2
// http.batch with a per-request responseCallback and tags: each entry judged by its own rule.
import http from "k6/http";

export const options = {
  thresholds: {
    "http_req_failed{name:gone}": ["rate==0"],
    "http_req_failed{name:broken}": ["rate==1"],
    "http_reqs{name:gone}": ["count==2"],
  },
};

export default function () {
  http.batch([
    ["GET", "http://127.0.0.1:18481/status/410", null, {
      tags: { name: "gone" },
      responseCallback: http.expectedStatuses(410),
    }],
    { method: "GET", url: "http://127.0.0.1:18482/status/500", params: { tags: { name: "broken" } } },
    "http://127.0.0.1:18481/get",
  ]);
}
