// args: -u 1 -i 2
// open(f, "b") in the init context: an ArrayBuffer posted raw and as a multipart file.
import http from "k6/http";
import { check } from "k6";

const blob = open("./data/h12_blob.bin", "b");

export const options = { thresholds: { checks: ["rate==1"], data_sent: ["count>=26"] } };

export default function () {
  const raw = http.post("http://127.0.0.1:18481/anything/raw", blob, {
    headers: { "Content-Type": "application/octet-stream" },
  });
  const form = http.post("http://127.0.0.1:18481/post", {
    file: http.file(blob, "blob.bin", "application/octet-stream"),
  });
  check(raw, {
    "an ArrayBuffer": () => blob instanceof ArrayBuffer && blob.byteLength === 13,
    "raw length": (r) => r.json("headers.Content-Length") === "13",
  });
  check(form, { "multipart sent": (r) => r.status === 200 && r.json("files.file") !== undefined });
}
