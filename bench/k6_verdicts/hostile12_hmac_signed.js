// args: -u 1 -i 2
// A signed API call: HMAC-SHA256 of the method, path and body in hex and base64url, sha256 of the body.
import http from "k6/http";
import crypto from "k6/crypto";
import encoding from "k6/encoding";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const body = JSON.stringify({ order: 42 });
  const toSign = `POST\n/anything/orders\n${body}`;
  const hex = crypto.hmac("sha256", "topsecret", toSign, "hex");
  const b64 = crypto.hmac("sha256", "topsecret", toSign, "base64rawurl");
  const digest = crypto.sha256(body, "hex");
  const res = http.post("http://127.0.0.1:18481/anything/orders", body, {
    headers: { "X-Signature": hex, "X-Sig-B64": b64, "X-Digest": digest, "Content-Type": "application/json" },
  });
  check(res, {
    "hex hmac as computed offline": (r) =>
      r.json("headers.X-Signature") === "c8cb33a9175ff28c3a40283af2910a0a23416129bbab6447b6f3629e00f4bb7e",
    "base64rawurl hmac": () => b64 === "yMszqRdf8ow6QCg68pEKCiNBYSm7q2RHtvNingD0u34",
    "body digest": (r) =>
      r.json("headers.X-Digest") === "54985dc3c12fada7a1b1db53cf23d3cbd4bcbe64e1cef95071e2073e2ceff4ed",
    "round trip": () => encoding.b64decode(encoding.b64encode("héllo", "url"), "url", "s") === "héllo",
  });
}
