// args: -i 1
// A threshold on a custom metric the script never declares: k6 refuses the configuration.
import http from "k6/http";

export const options = { thresholds: { login_errors: ["count==0"], http_reqs: ["count==1"] } };

export default function () {
  http.get("http://127.0.0.1:18481/get");
}
