// args:
// env: K6_ITERATIONS=4 K6_VUS=2
// K6_ITERATIONS and K6_VUS over the script's options: 4 iterations on 2 VUs.
import http from "k6/http";

export const options = {
  vus: 1,
  iterations: 2,
  thresholds: { iterations: ["count==4"], vus_max: ["value==2"] },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
}
