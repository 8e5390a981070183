// args: -i 3 --summary-trend-stats avg,p(99.9),p(0.1),count
// --summary-export under odd trend stats: the export's keys are those stats; a threshold on p(0.1).
import http from "k6/http";

export const options = { thresholds: { http_req_duration: ["p(0.1)<5000"] } };

export default function () {
  http.get("http://127.0.0.1:18481/get");
}
