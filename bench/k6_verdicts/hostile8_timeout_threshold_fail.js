// args: -u 1 -i 2
// Timeouts failing a threshold on http_req_failed (the exit 99); `timeout` in options is no k6 option, ignored.
import http from "k6/http";

export const options = {
  timeout: "500ms",
  thresholds: { http_req_failed: ["rate<0.1"], "http_reqs{error_code:1050}": ["count<1"] },
};

export default function () {
  http.get("http://127.0.0.1:18481/delay/2", { timeout: "500ms" });
  http.get("http://127.0.0.1:18481/get");
}
