// A long iteration the end of the test cuts (`gracefulStop: 0s`): k6 leaves the cut iteration out of
// `iterations` but keeps its request.
import http from "k6/http";
import { sleep } from "k6";

export const options = {
  scenarios: { main: { executor: "constant-vus", vus: 1, duration: "1s", gracefulStop: "0s" } },
  thresholds: { iterations: ["count==1"], http_reqs: ["count==2"] },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
  sleep(0.6);
}
