// args: -i 3
// What a team's error handler reads off a 4xx and a 5xx answer: error, error_code, status_text; counted
// in a Counter by code, with thresholds on it and on http_req_failed by status.
import http from "k6/http";
import { check } from "k6";
import { Counter } from "k6/metrics";

const errors = new Counter("api_errors");

export const options = {
  thresholds: {
    "api_errors{code:1404}": ["count==3"],
    "api_errors{code:1503}": ["count==3"],
    "http_req_failed{status:404}": ["rate==1"],
    http_req_failed: ["rate<0.7"],
  },
};

export default function () {
  for (
    const url of [
      "http://127.0.0.1:18481/status/404",
      "http://127.0.0.1:18481/status/503",
      "http://127.0.0.1:18481/get",
    ]
  ) {
    const res = http.get(url);
    if (res.error_code !== 0) errors.add(1, { code: String(res.error_code) });
    console.log(
      `${res.status} code=${res.error_code} error=${JSON.stringify(res.error)} text=${res.status_text}`,
    );
    check(res, { "error set on failure": (r) => (r.status >= 400) === (r.error !== "") });
  }
}
