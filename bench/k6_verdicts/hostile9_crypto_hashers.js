// args: -u 1 -i 1
// k6/crypto hashers fed twice and read in several encodings, an HMAC signature sent in a header, k6/encoding
// round trips in url and rawstd; the echo judged.
import http from "k6/http";
import crypto from "k6/crypto";
import encoding from "k6/encoding";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const h = crypto.createHash("sha256");
  h.update("load");
  h.update("lab");
  const hex = h.digest("hex");
  const mac = crypto.createHMAC("sha256", "secret");
  mac.update("GET /headers");
  const sig = mac.digest("base64rawurl");
  const res = http.get("http://127.0.0.1:18481/headers", { headers: { "X-Signature": sig } });
  check(res, {
    "sha256 of both parts": () => hex === crypto.sha256("loadlab", "hex"),
    "hmac rawurl has no padding": () => !/[=+/]/.test(sig) && sig.length === 43,
    "hmac matches one-shot": () => crypto.hmac("sha256", "secret", "GET /headers", "base64rawurl") === sig,
    "header echoed": (r) => r.json("headers.X-Signature") === sig,
    "md5 hex": () => crypto.md5("abc", "hex") === "900150983cd24fb0d6963f7d28e17f72",
    "url b64 round trip": () => encoding.b64decode(encoding.b64encode("?>?>", "url"), "url", "s") === "?>?>",
    "rawstd drops padding": () => encoding.b64encode("ab", "rawstd") === "YWI",
    "binary digest bytes": () => new Uint8Array(crypto.sha1("x", "binary")).length === 20,
  });
}
