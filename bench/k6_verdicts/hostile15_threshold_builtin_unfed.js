// args: -i 2
// Thresholds on built-in metrics nothing feeds (ws, grpc, a custom Trend never added): judged as k6 judges none.
import http from "k6/http";
import { Rate, Trend } from "k6/metrics";

const waits = new Trend("waits", true);
const ok = new Rate("ok_rate");

export const options = {
  thresholds: {
    ws_connecting: ["p(95)<100"],
    ws_sessions: ["count==0"],
    grpc_req_duration: ["avg<1"],
    waits: ["p(95)<1"],
    ok_rate: ["rate>0.9"],
    "waits{kind:x}": ["max<1"],
    http_reqs: ["count==2"],
  },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
  if (__ITER > 100) {
    waits.add(1);
    ok.add(true);
  }
}
