// args: -u 1 -i 2
// A JSON string posted with no Content-Type header: k6 sends none; the echo shows the headers it got.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const r = http.post("http://127.0.0.1:18481/post", JSON.stringify({ a: 1 }));
  check(r, {
    "json parsed": (res) => res.json("json.a") === 1,
    "no content type sent": (res) => res.json("headers.Content-Type") === undefined,
    "length sent": (res) => res.json("headers.Content-Length") === "7",
  });
}
