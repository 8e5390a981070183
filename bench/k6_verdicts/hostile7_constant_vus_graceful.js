// constant-vus whose iterations outlast its duration: gracefulStop lets the first iteration of each VU end.
import http from "k6/http";
import { sleep } from "k6";

export const options = {
  scenarios: { steady: { executor: "constant-vus", vus: 2, duration: "1s", gracefulStop: "4s" } },
  thresholds: { iterations: ["count==2"], http_reqs: ["count==4"] },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
  sleep(2);
  http.get("http://127.0.0.1:18482/get");
}
