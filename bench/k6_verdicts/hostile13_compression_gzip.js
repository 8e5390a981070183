// args: -u 1 -i 2
// compression: "gzip" on a POST body: k6 compresses it and sets Content-Encoding.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const body = JSON.stringify({ text: "x".repeat(2000) });
  const res = http.post("http://127.0.0.1:18481/post", body, {
    compression: "gzip",
    headers: { "Content-Type": "application/json" },
  });
  check(res, {
    "accepted": (r) => r.status === 200,
    "encoded gzip": (r) => r.json("headers.Content-Encoding") === "gzip",
    "smaller on the wire": (r) => Number(r.json("headers.Content-Length")) < 2000,
  });
}
