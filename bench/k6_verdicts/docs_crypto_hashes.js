// args: -u 1 -i 2
// k6/crypto as its documentation's pages call it: each hash by name, createHash's update and digest,
// createHMAC, hmac(), and the output encodings (hex, base64, base64url, base64rawurl, binary).
import crypto from "k6/crypto";
import { check } from "k6";
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  http.get(`${BASE}/get`);
  check(crypto, {
    "md4": (c) => c.md4("hello world!", "hex") === "3363b72840acd5f49f922fef598ee85d",
    "md5": (c) => c.md5("hello world!", "hex") === "fc3ff98e8c6a0d3087d515c0473f8677",
    "sha1": (c) => c.sha1("hello world!", "hex") === "430ce34d020724ed75a196dfc2ad67c77772d169",
    "sha256": (c) =>
      c.sha256("hello world!", "hex") === "7509e5bda0c762d2bac7f90d758b5b2263fa01ccbc542ab5e3df163be08e6ca9",
    "sha256 base64": (c) =>
      c.sha256("hello world!", "base64") === "dQnlvaDHYtK6x/kNdYtbImP6Acy8VCq1498WO+CObKk=",
    "sha384 length": (c) => c.sha384("hello world!", "hex").length === 96,
    "sha512_224": (c) =>
      c.sha512_224("hello world!", "hex") === "bc4ed196f7ba1c20f6fb6be1f91edf8293a35b065d6e7d6fd368c890",
    "sha512_256 length": (c) => c.sha512_256("hello world!", "hex").length === 64,
    "ripemd160": (c) => c.ripemd160("hello world!", "hex") === "dffd03137b3a333d5754813399a5f437acd694e5",
    "hmac": (c) =>
      c.hmac("sha256", "a secret", "my data", "hex") ===
        "82f669c8fde13aef6d6977257588dc4953dfac505428f8fd6b52e19cd96d7ea5",
    "createHMAC": (c) =>
      c.createHMAC("sha256", "a secret").update("my data").digest("hex") ===
        c.hmac("sha256", "a secret", "my data", "hex"),
    "createHash in parts": (c) => {
      const h = c.createHash("sha1");
      h.update("hello ");
      h.update("world!");
      return h.digest("hex") === "430ce34d020724ed75a196dfc2ad67c77772d169";
    },
    "base64url": (c) =>
      c.sha256("hello world!", "base64url") === "dQnlvaDHYtK6x_kNdYtbImP6Acy8VCq1498WO-CObKk=",
    "base64rawurl": (c) =>
      c.sha256("hello world!", "base64rawurl") === "dQnlvaDHYtK6x_kNdYtbImP6Acy8VCq1498WO-CObKk",
    "binary is bytes": (c) => {
      const b = c.md5("hello world!", "binary");
      return b.byteLength === 16 || b.length === 16;
    },
    "randomBytes": (c) => c.randomBytes(42).byteLength === 42,
    "hash of ArrayBuffer": (c) => c.md5(new Uint8Array([104, 105]).buffer, "hex") === c.md5("hi", "hex"),
  });
}
