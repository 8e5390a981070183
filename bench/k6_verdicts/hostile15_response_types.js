// args: -i 2
// responseType none, binary and text on one path: body null, an ArrayBuffer, a string; sizes alike.
import http from "k6/http";
import { check } from "k6";

export const options = { discardResponseBodies: true, thresholds: { checks: ["rate==1"] } };

export default function () {
  const none = http.get("http://127.0.0.1:18481/bytes/64");
  const bin = http.get("http://127.0.0.1:18481/bytes/64", { responseType: "binary" });
  const text = http.get("http://127.0.0.1:18481/get", { responseType: "text" });
  check(null, {
    "none": () => none.body === null && none.status === 200,
    "binary": () => bin.body instanceof ArrayBuffer && bin.body.byteLength === 64,
    "bytes": () => new Uint8Array(bin.body)[1] === 1,
    "text": () => typeof text.body === "string" && text.json("url").endsWith("/get"),
    "json of none throws": () => {
      try {
        none.json();
        return false;
      } catch (_) {
        return true;
      }
    },
  });
}
