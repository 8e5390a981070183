// args: --config data/h15_config.json
// A --config file's iterations beneath the script's: the script's 3 run, the file's VUs and tags kept.
import http from "k6/http";

export const options = {
  iterations: 3,
  thresholds: { iterations: ["count==3"], vus_max: ["value==2"], "http_reqs{source:config}": ["count==3"] },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
}
