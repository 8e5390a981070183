// args: -u 2 -i 4
// A binary file read with open(path, "b") and sent as a multipart upload with http.file, beside a text
// field; the bytes' length and the echoed file name are checked.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const img = open("./data/pixel.png", "b");

export const options = {
  thresholds: { checks: ["rate==1"], "http_reqs{name:upload}": ["count==4"] },
};

export default function () {
  const body = { file: http.file(img, "pixel.png", "image/png"), title: `vu${__VU}` };
  const res = http.post(`${BASE}/post`, body, { tags: { name: "upload" } });
  check(res, {
    "200": (r) => r.status === 200,
    "binary length": () => img.byteLength === 67,
    "title field": (r) => r.json("form.title") === `vu${__VU}`,
    "file echoed": (r) => r.json("files.file") !== undefined && r.json("files.file") !== null,
    "multipart type": (r) => String(r.request.headers["Content-Type"]).startsWith("multipart/form-data"),
  });
}
