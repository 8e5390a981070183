// args: -i 2
// handleSummary's state and options: testRunDurationMs a number beyond setup's sleep, isStdOutTTY false.
import http from "k6/http";
import { sleep } from "k6";

export const options = { summaryTrendStats: ["min", "max", "p(50)"], summaryTimeUnit: "ms" };

export function setup() {
  sleep(0.5);
}

export default function () {
  http.get("http://127.0.0.1:18481/get");
}

export function handleSummary(data) {
  const s = data.state;
  return {
    stdout: [
      `@ state ${Object.keys(s).sort().join(",")}`,
      `@ duration ${typeof s.testRunDurationMs} ${s.testRunDurationMs >= 500 && s.testRunDurationMs < 5000}`,
      `@ tty ${s.isStdOutTTY} ${s.isStdErrTTY}`,
      `@ options ${Object.keys(data.options).sort().join(",")}`,
      `@ stats ${data.options.summaryTrendStats.join(",")} ${data.options.summaryTimeUnit}`,
      `@ trend ${Object.keys(data.metrics.http_req_duration.values).sort().join(",")}`,
      `@ top ${Object.keys(data).sort().join(",")}`,
      "",
    ].join("\n"),
  };
}
