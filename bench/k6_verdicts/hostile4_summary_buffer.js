// args: -u 1 -i 2
// handleSummary answering text, an ArrayBuffer of bytes and stdout: k6 writes all three.
import http from "k6/http";

export const options = { thresholds: { http_reqs: ["count==2"] } };

export default function () {
  http.get("http://127.0.0.1:18481/get");
}

export function handleSummary(data) {
  const bytes = new Uint8Array([104, 105, 10]);
  return {
    "/tmp/loadlab-k6-verdicts-h4-summary.bin": bytes.buffer,
    "/tmp/loadlab-k6-verdicts-h4-summary.txt": `reqs ${data.metrics.http_reqs.values.count}\n`,
    stdout: "done\n",
  };
}
