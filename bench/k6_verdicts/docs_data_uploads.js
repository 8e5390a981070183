// args: -u 1 -i 2
// k6's documentation's data uploads: a file opened in binary in init, sent as multipart with http.file
// (its name and content type), beside plain fields; and the same bytes as a raw body.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const binFile = open("./data/docs_users.csv", "b");
const textFile = open("./data/docs_users.csv");

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const data = {
    field: "this is a standard form field",
    file: http.file(binFile, "users.csv", "text/csv"),
  };
  const res = http.post(`${BASE}/post`, data);
  check(res, {
    "multipart sent": (r) =>
      r.request.headers["Content-Type"][0].startsWith("multipart/form-data; boundary="),
    "field": (r) => r.json("form.field") === "this is a standard form field",
    "file": (r) => r.json("files.file") === textFile,
    "binary is an ArrayBuffer": () =>
      binFile instanceof ArrayBuffer && binFile.byteLength === textFile.length,
  });
  const raw = http.post(`${BASE}/post`, binFile, { headers: { "Content-Type": "application/octet-stream" } });
  check(raw, { "raw bytes": (r) => r.json("data") === textFile });
  const f = http.file("plain text", "note.txt");
  check(f, {
    "file() fields": (x) => x.filename === "note.txt" && x.content_type === "application/octet-stream",
  });
}
