// args: -i 1
// k6/encoding and k6/crypto as teams sign requests: rawurl base64, hmac in base64, hashers fed twice.
import http from "k6/http";
import { check } from "k6";
import encoding from "k6/encoding";
import crypto from "k6/crypto";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const sig = crypto.hmac("sha256", "key", "msg", "base64");
  const res = http.get(`http://127.0.0.1:18481/get?sig=${encodeURIComponent(sig)}`, {
    headers: { Authorization: `Basic ${encoding.b64encode("user:pass")}` },
  });
  const hasher = crypto.createHash("md5");
  hasher.update("a");
  hasher.update("b");
  check(res, {
    "hmac base64": (r) => r.json("args.sig") === "LZPLwb4We8sWN6SiPL/wGnh48MUO6DOVTqUiG7G4xig=",
    "sha256 hex": () => crypto.sha256("abc", "hex").startsWith("ba7816bf8f01cfea"),
    "md5 fed twice": () => hasher.digest("hex") === "187ef4436122d1cc2f40dc2b92f0eba0",
    "rawurl": () => encoding.b64encode("hi?>", "rawurl") === "aGk_Pg",
    "decode to string": () => encoding.b64decode("aGk/Pg==", "std", "s") === "hi?>",
    "random bytes": () => crypto.randomBytes(8).byteLength === 8,
    "basic header": (r) => r.json("headers.Authorization") === "Basic dXNlcjpwYXNz",
  });
}
