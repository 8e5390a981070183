// args: -u 2 -i 4
// Checks in setup() and teardown() beside the iterations', and a threshold on checks by a check's name.
import http from "k6/http";
import { check, group } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: { checks: ["rate>0.7"], "checks{check:logged in}": ["rate==1"] },
};

export function setup() {
  const res = http.post(`${BASE}/post`, JSON.stringify({ user: "a" }), {
    headers: { "Content-Type": "application/json" },
  });
  check(res, { "logged in": (r) => r.status === 200, "has token": (r) => r.json("json.user") === "a" });
  return { user: res.json("json.user") };
}

export default function (data) {
  group("browse", () => {
    check(http.get(`${BASE}/get?u=${data.user}`), { "browse 200": (r) => r.status === 200 });
    check(http.get(`${BASE}/status/404`), { "missing is 200": (r) => r.status === 200 });
  });
}

export function teardown(data) {
  check(data, { "teardown sees user": (d) => d.user === "a" });
}
