// args: -u 1 -i 4
// Four thresholds on one metric, one of them failing: the run exits 99 and only that one is crossed.
import http from "k6/http";

export const options = {
  thresholds: {
    http_req_duration: ["p(95)<10000", "avg<10000", "min>=0", "max<0.0001"],
    "http_req_duration{expected_response:true}": ["p(99)<10000"],
  },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
}
