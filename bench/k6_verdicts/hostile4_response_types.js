// args: -u 1 -i 3
// responseType binary and none per request, checks on what res.body holds for each (bytes, null), and
// a text body's length.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"], data_received: ["count>0"] } };

export default function () {
  const bin = http.get("http://127.0.0.1:18481/bytes/64", { responseType: "binary" });
  check(bin, {
    "binary is ArrayBuffer": (r) => r.body instanceof ArrayBuffer,
    "binary length": (r) => r.body.byteLength === 64,
    "third byte": (r) => new Uint8Array(r.body)[2] === 2,
  });
  const none = http.get("http://127.0.0.1:18481/bytes/64", { responseType: "none" });
  check(none, { "none is null": (r) => r.body === null, "none status": (r) => r.status === 200 });
  const text = http.get("http://127.0.0.1:18481/get");
  check(text, { "text is string": (r) => typeof r.body === "string" && r.body.length > 10 });
}
