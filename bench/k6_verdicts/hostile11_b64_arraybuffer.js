// args: -u 1 -i 2
// encoding.b64encode of an ArrayBuffer (a binary response's body, a typed array's buffer) and back.
import http from "k6/http";
import encoding from "k6/encoding";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const res = http.get(`${BASE}/bytes/6`, { responseType: "binary" });
  const bytes = new Uint8Array([0, 1, 2, 3, 4, 5]);
  check(res, {
    "body is an ArrayBuffer": (r) => r.body instanceof ArrayBuffer && r.body.byteLength === 6,
    "b64 of the body": (r) => encoding.b64encode(r.body) === "AAECAwQF",
    "b64 of a buffer": () => encoding.b64encode(bytes.buffer) === "AAECAwQF",
    "rawurl": () => encoding.b64encode(new Uint8Array([251, 255]).buffer, "rawurl") === "-_8",
    "decoded to bytes": () => new Uint8Array(encoding.b64decode("AAECAwQF")).length === 6,
    "decoded to text": () => encoding.b64decode("aGVsbG8=", "std", "s") === "hello",
  });
}
