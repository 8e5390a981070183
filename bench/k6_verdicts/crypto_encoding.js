// args: -i 4
// k6/crypto and k6/encoding: a signed request whose hash and base64 the server echoes back.
import http from "k6/http";
import crypto from "k6/crypto";
import encoding from "k6/encoding";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const body = JSON.stringify({ iteration: __ITER });
  const signature = crypto.hmac("sha256", "not-a-secret", body, "hex");
  const basic = encoding.b64encode("ann:secret");
  const res = http.post(`${BASE}/post`, body, {
    headers: { "X-Signature": signature, Authorization: `Basic ${basic}` },
  });
  check(res, {
    "signature echoed": (r) => r.json("headers.X-Signature") === signature,
    "sha256 known": () => crypto.sha256("abc", "hex").startsWith("ba7816bf"),
    "md5 known": () => crypto.md5("abc", "hex") === "900150983cd24fb0d6963f7d28e17f72",
    "base64 round trip": () => encoding.b64decode(basic, "std", "s") === "ann:secret",
    "url-safe base64": () => encoding.b64encode("??>", "rawurl") === "Pz8-",
  });
}
