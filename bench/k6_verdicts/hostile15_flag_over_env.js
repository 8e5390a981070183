// args: -i 3 --config data/h15_config.json
// env: K6_ITERATIONS=5
// A flag over K6_* over the script over --config: -i 3 wins each tier.
import http from "k6/http";

export const options = { iterations: 7, thresholds: { iterations: ["count==3"] } };

export default function () {
  http.get("http://127.0.0.1:18481/get");
}
