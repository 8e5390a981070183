// args: -u 1 -i 2
// An option k6 does not know (a typo): k6 runs on, ignoring it.
import http from "k6/http";

export const options = { vu: 5, iteration: 9, thresholds: { iterations: ["count==2"] } };

export default function () {
  http.get("http://127.0.0.1:18481/get");
}
