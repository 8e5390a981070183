// args:
// options exported as a let, then changed by later init code: k6 reads the value at the end of init.
import http from "k6/http";

export let options = { vus: 1, iterations: 1 };
options.iterations = 3;
options = { ...options, thresholds: { iterations: ["count==3"], http_reqs: ["count>=3"] } };
if (__ENV.SLOW) options.iterations = 100;

export default function () {
  http.get("http://127.0.0.1:18481/get");
}
