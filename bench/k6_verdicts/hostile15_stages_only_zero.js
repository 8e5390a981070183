// args:
// options.stages that never rise above 0 VUs: nothing runs, and thresholds on absent samples are judged.
import http from "k6/http";

export const options = {
  stages: [{ duration: "1s", target: 0 }],
  thresholds: { iterations: ["count==0"], http_req_duration: ["p(95)<100"] },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
}
