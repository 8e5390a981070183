// args: -u 1 -i 3
// k6's documentation's error handler: a class logs a failed check's response (`res.request.headers`,
// `error_code`) through a Counter tagged with its fields.
import http from "k6/http";
import { check } from "k6";
import { Counter } from "k6/metrics";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const errors = new Counter("errors");

export const options = {
  thresholds: {
    errors: ["count==3"],
    "errors{status:300}": ["count==3"],
    "errors{error_code:1300}": ["count==0"],
    checks: ["rate==0.5"],
  },
};

class ErrorHandler {
  constructor(logErrorDetails) {
    this.logErrorDetails = logErrorDetails;
  }

  logError(isError, res, tags = {}) {
    if (!isError) return;
    const traceparentHeader = res.request.headers["Traceparent"];
    const errorData = Object.assign(
      {
        url: res.url,
        status: res.status,
        error_code: res.error_code,
        traceparent: traceparentHeader && traceparentHeader.toString(),
      },
      tags,
    );
    this.logErrorDetails(errorData);
  }
}

const errorHandler = new ErrorHandler((error) => errors.add(1, error));

export default function () {
  let res = http.get(`${BASE}/status/200`, { headers: { Traceparent: "00-abc-def-01" } });
  let ok = check(res, { "status is 200": (r) => r.status === 200 });
  errorHandler.logError(!ok, res);
  res = http.get(`${BASE}/status/300`, { redirects: 0 });
  ok = check(res, { "status is 200": (r) => r.status === 200 });
  errorHandler.logError(!ok, res);
}
