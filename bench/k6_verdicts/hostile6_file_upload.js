// args: -u 1 -i 2
// http.file() uploads: a binary file with its name and type, a text file with defaults, in one multipart
// body beside a plain field.
import http from "k6/http";
import { check } from "k6";

const png = open("./data/pixel.png", "b");
const csvText = open("./data/orders.csv");

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const res = http.post("http://127.0.0.1:18481/post", {
    image: http.file(png, "pixel.png", "image/png"),
    orders: http.file(csvText),
    note: "upload " + __ITER,
  });
  check(res, {
    "sent": (r) => r.status === 200,
    "multipart": (r) => String(r.json("headers.Content-Type") ?? "").startsWith("multipart/form-data"),
    "field": (r) => r.json("form.note") === "upload " + __ITER,
  });
}
