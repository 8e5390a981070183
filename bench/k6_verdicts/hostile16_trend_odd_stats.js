// args: -i 3
// summaryTrendStats with p(0), p(100), p(99.9) and count: p(0) is min, p(100) max, count the requests.
import http from "k6/http";

export const options = {
  summaryTrendStats: ["count", "p(0)", "p(100)", "p(99.9)", "med", "min", "max"],
  thresholds: { http_req_duration: ["p(0)>=0", "p(100)<5000", "p(99.9)<5000"] },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
}

export function handleSummary(data) {
  const v = data.metrics.http_req_duration.values;
  return {
    stdout: [
      `@ keys ${Object.keys(v).sort().join(",")}`,
      `@ count ${v.count}`,
      `@ ends ${v["p(0)"] === v.min} ${v["p(100)"] === v.max} ${v["p(99.9)"] <= v.max} ${v.med >= v.min}`,
      "",
    ].join("\n"),
  };
}
