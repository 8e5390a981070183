// args: -i 2
// k6/encoding's four base64 variants, an ArrayBuffer in and out ("s" for a string back).
import encoding from "k6/encoding";
import { check } from "k6";
import http from "k6/http";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const raw = "k6?>ok";
  const bytes = new Uint8Array([97, 98]).buffer;
  check(null, {
    "std": () => encoding.b64encode(raw) === "azY/Pm9r",
    "url": () => encoding.b64encode(raw, "url") === "azY_Pm9r",
    "rawstd of ab": () => encoding.b64encode(bytes, "rawstd") === "YWI",
    "std of ab": () => encoding.b64encode(bytes, "std") === "YWI=",
    "decode to string": () => encoding.b64decode("YWI", "rawstd", "s") === "ab",
    "decode to bytes": () => new Uint8Array(encoding.b64decode("YWI=")).length === 2,
    "rawurl round trip": () => encoding.b64decode(encoding.b64encode(raw, "rawurl"), "rawurl", "s") === raw,
  });
  http.get(`http://127.0.0.1:18481/base64/${encoding.b64encode("hello", "rawurl")}`);
}
