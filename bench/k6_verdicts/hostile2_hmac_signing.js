// args: -i 3
// Requests signed as an API gateway asks: an HMAC-SHA256 of method, path and a timestamp, hex in a
// header, base64 of a body digest in another; the echo is compared with the signature computed again.
import http from "k6/http";
import crypto from "k6/crypto";
import encoding from "k6/encoding";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const SECRET = __ENV.API_SECRET || "s3cr3t";

export const options = { thresholds: { checks: ["rate==1"] } };

function sign(method, path, ts, body) {
  const digest = crypto.sha256(body, "base64");
  const sig = crypto.hmac("sha256", SECRET, `${method}\n${path}\n${ts}\n${digest}`, "hex");
  return { digest, sig };
}

export default function () {
  const ts = String(1700000000 + __ITER);
  const body = JSON.stringify({ iter: __ITER });
  const { digest, sig } = sign("POST", "/post", ts, body);
  const res = http.post(`${BASE}/post`, body, {
    headers: { "Content-Type": "application/json", "X-Ts": ts, "X-Digest": digest, "X-Signature": sig },
  });
  const h = crypto.createHMAC("sha256", SECRET);
  h.update("POST\n/post\n");
  h.update(`${ts}\n${digest}`);
  check(res, {
    "sig echoed": (r) => r.json("headers.X-Signature") === sig,
    "sig 64 hex": () => /^[0-9a-f]{64}$/.test(sig),
    "streamed hmac same": () => h.digest("hex") === sig,
    "digest base64": () => encoding.b64decode(digest).byteLength === 32,
    "json body": (r) => r.json("json.iter") === __ITER,
  });
}
