// args: -i 3
// Verbs through http.request() and the shortcuts with bodies: PATCH, DELETE with a body, OPTIONS, and
// thresholds by the method tag.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const json = { headers: { "Content-Type": "application/json" } };

export const options = {
  thresholds: {
    "http_reqs{method:PATCH}": ["count==6"],
    "http_reqs{method:DELETE}": ["count==3"],
    "http_reqs{method:OPTIONS}": ["count==3"],
    checks: ["rate==1"],
  },
};

export default function () {
  const a = http.request("PATCH", `${BASE}/patch`, JSON.stringify({ a: 1 }), json);
  const b = http.patch(`${BASE}/patch`, { b: "2" });
  const c = http.del(`${BASE}/delete`, JSON.stringify({ id: 7 }), json);
  const d = http.options(`${BASE}/get`);
  check(a, { "patch json": (r) => r.json("json.a") === 1 });
  check(b, { "patch form": (r) => r.json("form.b") === "2" });
  check(c, { "delete body": (r) => r.json("json.id") === 7 });
  check(d, { "options answered": (r) => r.status > 0 });
}
