// args: -u 1 -i 2
// A threshold on a custom metric the script no longer creates (its Trend was removed, the threshold
// stayed): k6 refuses the test before the load.
import http from "k6/http";

export const options = {
  thresholds: { http_req_failed: ["rate<0.1"], checkout_duration: ["p(95)<500"] },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
}
