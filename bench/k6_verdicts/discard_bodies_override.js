// args: -i 2
// discardResponseBodies for the test, with responseType "text" on the one request whose body is read.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18482";

export const options = {
  discardResponseBodies: true,
  thresholds: { checks: ["rate==1"] },
};

export default function () {
  const bulk = http.get(`${BASE}/json`);
  const read = http.get(`${BASE}/get?keep=1`, { responseType: "text" });
  check(bulk, {
    "bulk body dropped": (r) => r.body === null && r.status === 200,
  });
  check(read, { "kept body parsed": (r) => r.json("args.keep") === "1" });
}
