// args: -u 2 -i 4
// setup() returns a large list; each iteration reads its part; teardown(data) checks it came back whole.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"], http_reqs: ["count==5"] } };

export function setup() {
  const res = http.get(`${BASE}/get`);
  const users = Array.from({ length: 5000 }, (_, i) => ({ id: i, name: `user-${i}`, tags: ["a", "b"] }));
  return { users, origin: res.json("url"), made: Date.now() };
}

export default function (data) {
  const user = data.users[(__VU * 100 + __ITER) % data.users.length];
  check(user, { "user has a name": (u) => u.name === `user-${u.id}` });
  http.get(`${BASE}/anything/${user.id}`);
}

export function teardown(data) {
  check(data, {
    "teardown sees all users": (d) => d.users.length === 5000 && d.users[4999].name === "user-4999",
    "teardown sees setup's answer": (d) => typeof d.origin === "string" && d.made > 0,
  });
}
