// args: -i 2 -u 1
// env: K6_ITERATIONS=5 K6_VUS=2
// K6_* variables and flags for the same options: the flags win, the script's own lose to both.
import http from "k6/http";

export const options = {
  iterations: 9,
  vus: 3,
  thresholds: { iterations: ["count==2"], vus_max: ["value==1"] },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
}
