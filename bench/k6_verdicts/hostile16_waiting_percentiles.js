// args: -i 2
// http_req_waiting and http_req_receiving of two requests: thresholds on their median, between the samples.
import http from "k6/http";

export const options = {
  thresholds: { http_req_waiting: ["med>150", "med<500"], http_req_receiving: ["med<100"] },
};

export default function () {
  http.get(`http://127.0.0.1:18481/delay/${__ITER === 0 ? "0" : "0.6"}`);
}

export function handleSummary(data) {
  const w = data.metrics.http_req_waiting.values;
  return { stdout: `@ waiting ${w.med > 150 && w.med < 500}\n` };
}
