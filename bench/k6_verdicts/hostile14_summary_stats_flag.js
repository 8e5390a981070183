// args: -i 3 --summary-trend-stats avg,p(90),p(99),max --summary-time-unit s
// The trend stats and time unit from the command line; a threshold on a stat neither lists.
import http from "k6/http";

export const options = { thresholds: { http_req_duration: ["p(90)<5000", "min>=0", "p(75)<5000"] } };

export default function () {
  http.get("http://127.0.0.1:18482/json");
}
