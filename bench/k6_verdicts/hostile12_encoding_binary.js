// args: -u 1 -i 1
// k6/encoding on binary: a base64 decoded to an ArrayBuffer ("b"), std and rawstd, posted back raw.
import http from "k6/http";
import encoding from "k6/encoding";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const bytes = encoding.b64decode("AAEC/w==", "std", "b");
  const raw = encoding.b64decode("AAEC/w", "rawstd", "b");
  const res = http.post("http://127.0.0.1:18481/anything/bin", bytes, {
    headers: { "Content-Type": "application/octet-stream" },
  });
  check(bytes, {
    "four bytes": (b) => b.byteLength === 4 && new Uint8Array(b)[3] === 255,
    "rawstd the same": () => new Uint8Array(raw).join() === new Uint8Array(bytes).join(),
    "re-encoded": (b) => encoding.b64encode(b) === "AAEC/w==",
  });
  check(res, { "server got four bytes": (r) => r.json("headers.Content-Length") === "4" });
}
