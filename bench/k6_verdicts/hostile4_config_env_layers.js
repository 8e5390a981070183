// args: --config data/h4_config.json
// env: K6_ITERATIONS=4
// A --config file (vus 3, iterations 9), the script's options (vus 1, iterations 2) and K6_ITERATIONS:
// k6 takes the variable over the script over the file.
import http from "k6/http";

export const options = {
  vus: 1,
  iterations: 2,
  thresholds: { iterations: ["count==4"], vus_max: ["value==1"] },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
}
