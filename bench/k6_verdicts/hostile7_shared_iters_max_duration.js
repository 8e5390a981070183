// shared-iterations cut by maxDuration: the iterations left over are dropped.
import http from "k6/http";
import { sleep } from "k6";

export const options = {
  scenarios: {
    pool: { executor: "shared-iterations", vus: 2, iterations: 200, maxDuration: "2s", gracefulStop: "0s" },
  },
  thresholds: { iterations: ["count<40", "count>2"], dropped_iterations: ["count>150"] },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
  sleep(0.4);
}
