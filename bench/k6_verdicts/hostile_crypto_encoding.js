// args: -i 1
// k6/crypto HMAC and hashes, k6/encoding b64 of strings and ArrayBuffers, as request signing does.
import crypto from "k6/crypto";
import encoding from "k6/encoding";
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const sig = crypto.hmac("sha256", "secret", "payload", "hex");
  const b64 = crypto.hmac("sha256", "secret", "payload", "base64");
  const h = crypto.createHash("sha1");
  h.update("a");
  h.update("b");
  const bytes = crypto.randomBytes(8);
  const r = http.get(`${BASE}/get`, { headers: { "X-Sig": sig } });
  check(null, {
    "hmac hex": () => sig === "b82fcb791acec57859b989b430a826488ce2e479fdf92326bd0a2e8375a42ba4",
    "hmac b64": () => b64 === "uC/LeRrOxXhZuYm0MKgmSIzi5Hn9+SMmvQoug3WkK6Q=",
    "sha1 streamed": () => h.digest("hex") === "da23614e02469a0d7c7bd1bdab5c9c474b1904dc",
    "random bytes": () => bytes.byteLength === 8,
    "b64 url raw": () => encoding.b64encode("hi?>", "rawurl") === "aGk_Pg",
    "b64 decode s": () => encoding.b64decode("aGk_Pg", "rawurl", "s") === "hi?>",
    "header sent": () => r.json("headers.X-Sig") === sig,
    "md5": () => crypto.md5("abc", "hex") === "900150983cd24fb0d6963f7d28e17f72",
  });
}
