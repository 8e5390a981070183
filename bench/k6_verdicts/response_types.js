// args: -i 3
// discardResponseBodies with a request that asks for its body back (responseType: "text"), and binary.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  discardResponseBodies: true,
  thresholds: { checks: ["rate==1"], "http_reqs{kind:binary}": ["count==3"] },
};

export default function () {
  const dropped = http.get(`${BASE}/json`);
  check(dropped, { "discarded body is null": (r) => r.body === null });
  const kept = http.get(`${BASE}/json`, { responseType: "text" });
  check(kept, { "text body kept": (r) => typeof r.body === "string" && r.body.length > 0 });
  const bin = http.get(`${BASE}/get`, { responseType: "binary", tags: { kind: "binary" } });
  check(bin, { "binary is ArrayBuffer": (r) => r.body instanceof ArrayBuffer && r.body.byteLength > 0 });
}
