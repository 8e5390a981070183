// args: -i 4 --summary-trend-stats avg,p(99.9),count
// --summary-trend-stats with a fractional percentile and count; thresholds on stats it does not list.
import http from "k6/http";

export const options = {
  thresholds: {
    http_req_duration: ["p(99.9)<30000", "med<30000"],
    http_reqs: ["count==4"],
    iteration_duration: ["p(50)<30000"],
  },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
}
