// args: -u 1 -i 2
// http.file uploads in a multipart form: text, bytes and a field beside them; the echo's files checked.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"], "http_reqs{method:POST}": ["count==2"] } };

export default function () {
  const data = {
    note: "invoice",
    report: http.file("id,total\n1,9.50\n", "report.csv", "text/csv"),
    blob: http.file(new Uint8Array([104, 105]).buffer, "blob.bin"),
  };
  const res = http.post(`${BASE}/post`, data);
  check(res, {
    "multipart sent": (r) => String(r.request.headers["Content-Type"]).startsWith("multipart/form-data"),
    "field echoed": (r) => r.json("form.note") === "invoice",
    "csv echoed": (r) => r.json("files.report") === "id,total\n1,9.50\n",
    "bytes echoed": (r) => r.json("files.blob") === "hi",
  });
}
