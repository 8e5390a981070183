// args: -u 1 -i 3
// check() on null (a helper that returns null when a lookup misses) and on a missing JSON field: the
// callbacks throw TypeErrors, and each iteration ends at the first that does.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { http_reqs: ["count==6"], checks: ["rate<1"] } };

function findUser(res, id) {
  const users = res.json("json.users") || [];
  return users.find((u) => u.id === id) || null;
}

export default function () {
  const res = http.post("http://127.0.0.1:18481/post", JSON.stringify({ users: [{ id: 1, name: "a" }] }));
  check(findUser(res, 1), { "user 1 named": (u) => u.name === "a" });
  http.get("http://127.0.0.1:18482/get");
  check(findUser(res, 2), { "user 2 named": (u) => u.name === "b" });
  http.get("http://127.0.0.1:18481/never");
}
