// args: --config data/h13_config.json
// A --config file with scenarios and thresholds; the script's own thresholds replace the file's.
import http from "k6/http";

export const options = { thresholds: { "http_reqs{scenario:fromfile}": ["count==3"] } };

export default function () {
  http.get("http://127.0.0.1:18481/get");
}
