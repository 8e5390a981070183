// args: -i 3
// k6/crypto and k6/encoding as an API signer uses them: HMAC and hashes in each output encoding, base64 in
// its four alphabets, bytes as ArrayBuffers.
import http from "k6/http";
import crypto from "k6/crypto";
import { b64decode, b64encode } from "k6/encoding";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"], "http_reqs{name:signed}": ["count==3"] } };

export default function () {
  const body = JSON.stringify({ n: __ITER });
  const sig = crypto.hmac("sha256", "key", body, "base64rawurl");
  const res = http.post(`${BASE}/post`, body, { headers: { "X-Sig": sig }, tags: { name: "signed" } });
  const hasher = crypto.createHash("sha256");
  hasher.update("ab");
  hasher.update("c");
  check(res, {
    "signature echoed": (r) => r.json("headers.X-Sig") === sig,
    "hmac hex": () =>
      crypto.hmac("sha256", "key", "The quick brown fox jumps over the lazy dog", "hex") ===
        "f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8",
    "sha256 base64": () => crypto.sha256("abc", "base64") === "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=",
    "incremental hash": () => hasher.digest("hex") === crypto.sha256("abc", "hex"),
    "sha512 hex length": () => crypto.sha512("abc", "hex").length === 128,
    "binary digest": () => crypto.sha1("abc", "binary").byteLength === 20,
    "random bytes": () => crypto.randomBytes(16).byteLength === 16,
    "std": () => b64encode("??>>") === "Pz8+Pg==",
    "rawstd": () => b64encode("??>>", "rawstd") === "Pz8+Pg",
    "url": () => b64encode("??>>", "url") === "Pz8-Pg==",
    "rawurl decode": () => b64decode("Pz8-Pg", "rawurl", "s") === "??>>",
    "decode to bytes": () => new Uint8Array(b64decode("AQID")).join() === "1,2,3",
    "encode bytes": () => b64encode(new Uint8Array([1, 2, 3]).buffer) === "AQID",
  });
}
