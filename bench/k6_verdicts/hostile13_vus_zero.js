// args: --vus 0 -i 2
// --vus 0 beside iterations: k6 refuses the configuration before the run.
import http from "k6/http";

export default function () {
  http.get("http://127.0.0.1:18481/get");
}
