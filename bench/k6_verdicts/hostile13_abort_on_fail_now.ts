// args:
// counts: by duration
// abortOnFail without a delay on a failing rate: k6 stops the test early and exits 99.
import http from "k6/http";

export const options = {
  vus: 1,
  duration: "8s",
  thresholds: {
    http_req_failed: [{ threshold: "rate<0.01", abortOnFail: true }],
  },
};

export default function (): void {
  http.get("http://127.0.0.1:18481/status/500");
}
