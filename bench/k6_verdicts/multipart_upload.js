// args: -i 2
// A file opened as bytes in init code, posted as multipart with http.file beside a plain field.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const csv = open("./data/queries.csv", "b");

export const options = {
  thresholds: { checks: ["rate==1"], "http_req_duration{name:upload}": ["p(95)<2000"] },
};

export default function () {
  const res = http.post(`${BASE}/post`, { kind: "report", file: http.file(csv, "queries.csv", "text/csv") }, {
    tags: { name: "upload" },
  });
  check(res, {
    "upload 200": (r) => r.status === 200,
    "field echoed": (r) => r.json("form.kind") === "report",
    "file echoed": (r) => String(r.json("files.file")).length === csv.byteLength,
  });
}
