// args:
// gracefulStop 0s: the iterations still sleeping at the duration's end are cut, not counted.
import http from "k6/http";
import { sleep } from "k6";

export const options = {
  scenarios: {
    cut: { executor: "constant-vus", vus: 2, duration: "1s", gracefulStop: "0s" },
  },
  thresholds: { iterations: ["count==0"], "http_reqs{scenario:cut}": ["count==2"] },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
  sleep(3);
}
