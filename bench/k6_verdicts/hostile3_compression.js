// args: -i 2
// A request body gzipped by k6 (the compression param), and a gzipped answer read as JSON.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { "checks{kind:gzip}": ["rate==1"] } };

export default function () {
  const up = http.post("http://127.0.0.1:18481/post", JSON.stringify({ big: "x".repeat(2000) }), {
    headers: { "Content-Type": "application/json" },
    compression: "gzip",
  });
  check(up, {
    "body gzipped": (r) => r.json("headers.Content-Encoding") === "gzip",
    "sent fewer bytes": (r) => Number(r.json("headers.Content-Length")) < 200,
  }, { kind: "gzip" });
  const down = http.get("http://127.0.0.1:18481/gzip");
  check(down, {
    "gzip answer decoded": (r) => r.json("gzipped") === true,
    "encoding header kept": (r) => r.headers["Content-Encoding"] === "gzip",
  }, { kind: "gzip" });
}
