// args: -i 4
// Several rules on one metric and on its tagged submetrics, one of them failing: 99, each judged alone.
import http from "k6/http";

export const options = {
  thresholds: {
    http_req_duration: ["avg<5000", "p(90)<5000", "max>=0", "min<0"],
    "http_req_duration{name:slow}": ["avg>=100", "med>=100"],
    "http_req_duration{name:fast}": ["p(99)<5000"],
    http_reqs: ["count==8", "rate>0"],
  },
};

export default function () {
  http.get("http://127.0.0.1:18481/delay/0.1", { tags: { name: "slow" } });
  http.get("http://127.0.0.1:18481/get", { tags: { name: "fast" } });
}
