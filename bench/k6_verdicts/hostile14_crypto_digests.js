// args: -i 2
// k6/crypto digests in hex, base64 and base64rawurl, an HMAC, a hasher updated twice.
import crypto from "k6/crypto";
import { check } from "k6";
import http from "k6/http";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const hasher = crypto.createHash("sha1");
  hasher.update("part1");
  hasher.update("part2");
  check(null, {
    "sha256 hex": () =>
      crypto.sha256("loadlab", "hex") === "1829c5a29bc53cce271492b71aaf9f7d63e61f656a7903b404bf5216011d56be",
    "md5 base64": () => crypto.md5("loadlab", "base64") === "47MdQv5qh+t20lsJLEgLsw==",
    "hmac sha256": () =>
      crypto.hmac("sha256", "secret", "loadlab", "hex") ===
        "582cbebf87c7ce105ba62b4e4874a0a517f3fc037ccad2cdbed2dbe01de33f99",
    "sha1 in parts, base64rawurl": () => hasher.digest("base64rawurl") === "5i8fZmFjdKIr08hyEMZZucjO6Tg",
    "sha512 base64": () => crypto.sha512("loadlab", "base64").startsWith("70v/FHj3YGwNpAyl"),
    "binary is an ArrayBuffer": () => crypto.sha256("loadlab", "binary").byteLength === 32,
  });
  http.get("http://127.0.0.1:18482/json", { headers: { "X-Sig": crypto.sha256(`${__ITER}`, "hex") } });
}
