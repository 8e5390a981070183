// args: -i 4
// The expected responses' median beside every response's: two 503s fast, two 200s at 0 and 0.4 s.
import http from "k6/http";

export const options = {
  thresholds: {
    "http_req_duration{expected_response:true}": ["med>100", "med<350"],
    "http_req_duration{status:503}": ["p(50)<100"],
  },
};

export default function () {
  if (__ITER < 2) http.get("http://127.0.0.1:18481/status/503");
  else http.get(`http://127.0.0.1:18481/delay/${__ITER === 2 ? "0" : "0.4"}`);
}

export function handleSummary(data) {
  const e = data.metrics["http_req_duration{expected_response:true}"].values;
  return { stdout: `@ expected med ${e.med > 100 && e.med < 350}\n` };
}
