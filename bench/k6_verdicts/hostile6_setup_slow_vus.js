// A slow setup() (1.5 s of login) before a short load: k6's `vus` points run from init to teardown, so
// its `vus` min is 0 and its points outnumber the load's seconds.
import http from "k6/http";
import { sleep } from "k6";

export const options = {
  vus: 2,
  iterations: 4,
  thresholds: { vus_max: ["value==2"], iterations: ["count==4"] },
};

export function setup() {
  sleep(1.5);
  return { token: http.post("http://127.0.0.1:18481/post", "login").status };
}

export default function (data) {
  http.get(`http://127.0.0.1:18481/get?t=${data.token}`);
}

export function teardown() {
  sleep(1.2);
}
