// args: -u 1 -i 2
// http.file() from open(path, "b") in a multipart body beside plain fields.
import http from "k6/http";
import { check } from "k6";

const blob = open("./data/h12_blob.bin", "b");

export const options = { thresholds: { checks: ["rate==1"], data_sent: ["count>100"] } };

export default function () {
  const res = http.post("http://127.0.0.1:18481/post", {
    note: "upload",
    file: http.file(blob, "blob.bin", "application/octet-stream"),
  });
  check(res, {
    "posted": (r) => r.status === 200,
    "form field": (r) => r.json("form.note") === "upload",
    "multipart": (r) => String(r.json("headers.Content-Type")).startsWith("multipart/form-data"),
  });
}
