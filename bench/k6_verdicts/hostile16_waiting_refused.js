// args: -i 4
// http_req_waiting and http_req_connecting with two refused requests: k6 times each 0 ms in every trend.
import http from "k6/http";

export const options = {
  thresholds: { http_req_waiting: ["min==0", "med<100"], http_req_connecting: ["min==0"] },
};

export default function () {
  if (__ITER < 2) http.get("http://127.0.0.1:9/refused");
  else http.get("http://127.0.0.1:18481/delay/0.3");
}

export function handleSummary(data) {
  const w = data.metrics.http_req_waiting.values;
  return { stdout: `@ waiting min ${w.min} low-med ${w.med < 100}\n` };
}
