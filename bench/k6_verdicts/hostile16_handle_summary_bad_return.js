// args: -i 1
// handleSummary returning an object, not a string, under stdout: what each tool writes and exits with.
import http from "k6/http";

export default function () {
  http.get("http://127.0.0.1:18481/get");
}

export function handleSummary(data) {
  return { stdout: { count: data.metrics.http_reqs.values.count } };
}
