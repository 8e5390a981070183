// args: -i 2
// discardResponseBodies: body is null unless a request asks responseType text; checks on both.
import http from "k6/http";
import { check } from "k6";

export const options = { discardResponseBodies: true, thresholds: { checks: ["rate==1"] } };

export default function () {
  const dropped = http.get("http://127.0.0.1:18481/bytes/100");
  const kept = http.get("http://127.0.0.1:18481/get", { responseType: "text" });
  check(dropped, { "no body": (r) => r.body === null });
  check(kept, { "text body": (r) => typeof r.body === "string" && r.body.length > 10 });
}

export function handleSummary(data) {
  return { stdout: `@ received ${data.metrics.data_received.values.count > 200}\n` };
}
