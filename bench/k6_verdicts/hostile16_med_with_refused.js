// args: -i 4
// Two refused requests (0 ms in k6) and two answered: the median is between 0 and the faster answer.
import http from "k6/http";

export const options = {
  thresholds: { http_req_duration: ["med<150", "p(90)>200", "min==0"] },
};

export default function () {
  if (__ITER < 2) http.get("http://127.0.0.1:9/refused");
  else http.get(`http://127.0.0.1:18481/delay/${__ITER === 2 ? "0.2" : "0.5"}`);
}
