// `discardResponseBodies: true` for the run, `responseType: "text"` and `"binary"` per request; a body
// discarded reads null and its `json()` throws.
import http from "k6/http";
import { check } from "k6";

export const options = { iterations: 2, discardResponseBodies: true, thresholds: { checks: ["rate==1"] } };

export default function () {
  const dropped = http.get("http://127.0.0.1:18481/get");
  const text = http.get("http://127.0.0.1:18481/get?t=1", { responseType: "text" });
  const bytes = http.get("http://127.0.0.1:18481/bytes/16", { responseType: "binary" });
  check(dropped, {
    "discarded": (r) => r.body === null,
    "json throws": (r) => {
      try {
        r.json();
        return false;
      } catch (_) {
        return true;
      }
    },
  });
  check(text, { "text kept": (r) => r.json("args.t") === "1" });
  check(bytes, { "bytes kept": (r) => r.body.byteLength === 16 && new Uint8Array(r.body)[3] === 3 });
}
