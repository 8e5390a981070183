// args: -u 1 -i 2
// setup() returns a NaN and a function: k6 cannot send it to the VUs and ends the run before the load.
import http from "k6/http";

export const options = { thresholds: { http_reqs: ["count==1"] } };

export function setup() {
  const res = http.get("http://127.0.0.1:18481/get");
  return { status: res.status, ratio: NaN, onDone() {} };
}

export default function (data) {
  http.get(`http://127.0.0.1:18481/get?status=${data.status}`);
}
