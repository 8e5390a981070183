// args: -i 3
// summaryTrendStats with p(99.9) and count, summaryTimeUnit; thresholds on stats the summary does not list.
import http from "k6/http";

export const options = {
  summaryTrendStats: ["avg", "p(99.9)", "count"],
  summaryTimeUnit: "ms",
  thresholds: {
    http_req_duration: ["p(99.9)<5000", "med<5000", "max<5000"],
    iteration_duration: ["p(50)>0"],
  },
};

export default function () {
  http.get("http://127.0.0.1:18482/json");
}
