// args: -u 1 -i 4 --summary-trend-stats avg,min,med,max,p(99.9),p(50)
// --summary-trend-stats naming p(99.9) and p(50), with thresholds on stats the list does and does not name.
import http from "k6/http";

export const options = {
  thresholds: {
    http_req_duration: ["p(99.9)<5000", "p(75)<5000", "med<5000"],
    iteration_duration: ["avg<10000"],
  },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
}
