// args: -u 2 -i 4
// discardResponseBodies in options with one request asking for its body as text, one as binary.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { discardResponseBodies: true, thresholds: { checks: ["rate==1"] } };

export default function () {
  const plain = http.get(`${BASE}/get`);
  const text = http.get(`${BASE}/get?keep=1`, { responseType: "text" });
  const bin = http.get(`${BASE}/bytes/16`, { responseType: "binary" });
  check(plain, {
    "discarded": (r) => r.body === null,
    "length header": (r) => Number(r.headers["Content-Length"]) > 0,
  });
  check(text, { "kept": (r) => r.json("args.keep") === "1" });
  check(bin, { "bytes": (r) => r.body.byteLength === 16 && new Uint8Array(r.body)[15] === 15 });
}
