// args: -i 2
// A multipart upload of a binary file opened with "b" via http.file, beside a plain field.
import http from "k6/http";
import { check } from "k6";

const png = open("./data/pixel.png", "b");

export const options = { thresholds: { checks: ["rate==1"], data_sent: ["count>100"] } };

export default function () {
  const res = http.post("http://127.0.0.1:18481/post", {
    note: "avatar",
    avatar: http.file(png, "me.png", "image/png"),
  });
  check(res, {
    "field": (r) => r.json("form.note") === "avatar",
    "file": (r) => r.json("files.avatar") !== undefined && r.json("files.avatar") !== null,
    "multipart": (r) => r.json("headers.Content-Type").startsWith("multipart/form-data; boundary="),
    "bytes": () => png.byteLength > 0,
  });
}
