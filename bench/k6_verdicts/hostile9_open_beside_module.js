// args: -u 1 -i 2
// A module opens its data file by a path relative to itself, not to the script.
import http from "k6/http";
import { check } from "k6";
import { users } from "./lib/h9/users.js";

export const options = { thresholds: { checks: ["rate==1"], http_reqs: ["count==2"] } };

export default function () {
  const user = users[__ITER % users.length];
  const res = http.get(`http://127.0.0.1:18481/get?user=${user.name}`);
  check(res, { "user from the module's file": (r) => ["ann", "bob"].includes(r.json("args.user")) });
}
