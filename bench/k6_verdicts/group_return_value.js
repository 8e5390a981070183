// args: -i 3
// group() returns its function's value, used by the next step; nested groups and checks in each.
import http from "k6/http";
import { check, group } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18482";

export const options = {
  thresholds: {
    "http_req_duration{group:::auth}": ["p(95)<3000"],
    "http_reqs{group:::account::profile}": ["count==3"],
    "checks{group:::account}": ["rate==1"],
  },
};

export default function () {
  const token = group("auth", () => {
    const res = http.post(
      `${BASE}/login`,
      JSON.stringify({ user: `u${__ITER}`, password: "secret" }),
      {
        headers: { "Content-Type": "application/json" },
      },
    );
    check(res, { "logged in": (r) => r.status === 200 });
    return res.json("token");
  });
  const user = group("account", () => {
    check(token, { "token is a string": (t) => typeof t === "string" });
    return group("profile", () => {
      const res = http.get(`${BASE}/me`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      check(res, { "me answered": (r) => r.status === 200 });
      return res.json("user");
    });
  });
  check(user, { "user from group": (u) => u === `u${__ITER}` });
}
