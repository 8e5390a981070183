// args: -i 2
// discardResponseBodies with a responseType per request: "text" and "binary" keep their bodies.
import http from "k6/http";
import { check } from "k6";

export const options = { discardResponseBodies: true, thresholds: { checks: ["rate==1"] } };

export default function () {
  const dropped = http.get("http://127.0.0.1:18481/get");
  const text = http.get("http://127.0.0.1:18481/get", { responseType: "text" });
  const bin = http.get("http://127.0.0.1:18481/bytes/16", { responseType: "binary" });
  check(dropped, { "discarded body is null": (r) => r.body === null });
  check(text, { "text kept": (r) => typeof r.body === "string" && r.body.includes("url") });
  check(bin, { "binary kept": (r) => r.body instanceof ArrayBuffer && r.body.byteLength === 16 });
}
