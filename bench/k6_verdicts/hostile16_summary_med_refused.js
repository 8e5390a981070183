// args: -i 4
// Two refused requests and two answered: k6's summary trend holds the refused ones' 0 ms, as its rules do.
import http from "k6/http";

export const options = { summaryTrendStats: ["min", "med", "p(25)", "max", "count"] };

export default function () {
  if (__ITER < 2) http.get("http://127.0.0.1:9/refused");
  else http.get(`http://127.0.0.1:18481/delay/${__ITER === 2 ? "0.2" : "0.5"}`);
}

export function handleSummary(data) {
  const v = data.metrics.http_req_duration.values;
  const band = (ms) => (ms === 0 ? "zero" : ms < 150 ? "low" : ms < 400 ? "mid" : "high");
  return {
    stdout: `@ trend min ${band(v.min)} p25 ${band(v["p(25)"])} med ${band(v.med)} count ${v.count}\n`,
  };
}
