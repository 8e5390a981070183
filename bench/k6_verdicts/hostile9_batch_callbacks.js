// args: -u 1 -i 2
// A global response callback widened to a range and 418, a batch whose requests carry their own callback,
// and one request with callback null: http_req_failed by tag.
import http from "k6/http";

http.setResponseCallback(http.expectedStatuses({ min: 200, max: 299 }, 418));

export const options = {
  thresholds: {
    "http_req_failed{kind:teapot}": ["rate==0"],
    "http_req_failed{kind:gone}": ["rate==0"],
    "http_req_failed{kind:server}": ["rate==1"],
    "http_req_failed{kind:unjudged}": ["rate==0"],
    "http_reqs{kind:unjudged}": ["count==2"],
  },
};

export default function () {
  http.batch([
    ["GET", "http://127.0.0.1:18481/status/418", null, { tags: { kind: "teapot" } }],
    ["GET", "http://127.0.0.1:18481/status/410", null, {
      tags: { kind: "gone" },
      responseCallback: http.expectedStatuses(410),
    }],
    { method: "GET", url: "http://127.0.0.1:18481/status/500", params: { tags: { kind: "server" } } },
  ]);
  http.get("http://127.0.0.1:18481/status/502", { responseCallback: null, tags: { kind: "unjudged" } });
}
