// args: -u 1 -i 3
// k6's documentation's discardResponseBodies: no body kept run-wide, one request's responseType "text"
// keeps its body; responseType "binary" gives bytes and "none" nothing.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  discardResponseBodies: true,
  thresholds: { checks: ["rate==1"], data_received: ["count>0"] },
};

export default function () {
  check(http.get(`${BASE}/get`), { "discarded": (r) => r.body === null });
  check(http.get(`${BASE}/get?t=1`, { responseType: "text" }), {
    "text kept": (r) => typeof r.body === "string" && r.json("args.t") === "1",
  });
  check(http.get(`${BASE}/bytes/16`, { responseType: "binary" }), {
    "binary is bytes": (r) => r.body.byteLength === 16 && new Uint8Array(r.body)[15] === 15,
  });
  check(http.get(`${BASE}/get`, { responseType: "none" }), { "none": (r) => r.body === null });
}
