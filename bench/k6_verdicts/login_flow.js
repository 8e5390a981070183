// args: -u 3 -i 9
// A team's flow: a user per VU from a SharedArray, named requests in groups, thresholds by name, group
// and check, and the script's own Rate.
import http from "k6/http";
import exec from "k6/execution";
import { check, group } from "k6";
import { SharedArray } from "k6/data";
import { Rate } from "k6/metrics";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const users = new SharedArray("users", () => [{ user: "ann" }, { user: "bob" }, { user: "cid" }]);
const loginOk = new Rate("login_ok");

export const options = {
  thresholds: {
    "http_req_duration{name:login}": ["p(95)<2000"],
    "http_reqs{name:item}": ["count==9"],
    "checks{check:item is 200}": ["rate==1"],
    "http_req_failed{group:::browse}": ["rate==0"],
    login_ok: ["rate==1"],
  },
};

export default function () {
  const u = users[(exec.vu.idInTest - 1) % users.length];
  group("login", () => {
    const res = http.post(`${BASE}/login`, JSON.stringify({ user: u.user, password: "secret" }), {
      headers: { "Content-Type": "application/json" },
      tags: { name: "login" },
    });
    loginOk.add(res.status === 200);
  });
  group("browse", () => {
    const res = http.get(http.url`${BASE}/json?id=${exec.scenario.iterationInTest}`, {
      tags: { name: "item" },
    });
    check(res, { "item is 200": (r) => r.status === 200 });
  });
}
