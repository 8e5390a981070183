// args: -i 3
// Three requests of 0, 0.3 and 0.6 s: k6's p(25) is between the first two, p(90) between the last two.
import http from "k6/http";

export const options = {
  summaryTrendStats: ["med", "p(25)", "p(90)"],
  thresholds: { http_req_duration: ["p(25)>100", "p(25)<300", "p(90)>480", "p(90)<700", "med>250"] },
};

export default function () {
  http.get(`http://127.0.0.1:18481/delay/${(__ITER * 0.3).toFixed(1)}`);
}

export function handleSummary(data) {
  const v = data.metrics.http_req_duration.values;
  return { stdout: `@ between ${v["p(25)"] > v.min && v["p(25)"] < v.med && v["p(90)"] < v.max}\n` };
}
