// args: -u 1 -i 2
// k6/encoding's four base64 alphabets both ways, a decode to a string ("s") and to an ArrayBuffer.
import encoding from "k6/encoding";
import { b64decode, b64encode } from "k6/encoding";
import { check } from "k6";
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const str = "hello world ???";
  const bin = new Uint8Array([251, 255, 190]).buffer;
  check(null, {
    "std": () => b64encode(str) === "aGVsbG8gd29ybGQgPz8/",
    "rawstd": () => b64encode(str, "rawstd") === "aGVsbG8gd29ybGQgPz8/",
    "url": () => encoding.b64encode(bin, "url") === "-_--",
    "rawurl": () => encoding.b64encode(new Uint8Array([251, 255]).buffer, "rawurl") === "-_8",
    "std padded": () => b64encode(new Uint8Array([251, 255]).buffer) === "+/8=",
    "decode to string": () => b64decode("aGVsbG8gd29ybGQgPz8/", "std", "s") === str,
    "decode to bytes": () => new Uint8Array(b64decode("+/8=")).join() === "251,255",
    "decode rawurl": () => new Uint8Array(b64decode("-_8", "rawurl")).join() === "251,255",
  });
  const res = http.get(`${BASE}/base64/${b64encode("k6 in base64", "url")}`);
  check(res, { "server decoded it": (r) => r.body === "k6 in base64" });
}
