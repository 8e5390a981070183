// args: -u 1 -i 2
// A setup() that prints its fixture with console.table, written by someone used to Node: k6's console
// has no table, so setup() throws.
import http from "k6/http";
import { check } from "k6";

export function setup() {
  const users = [{ name: "ann" }, { name: "bob" }];
  console.table(users);
  return { users };
}

export default function (data) {
  check(http.get("http://127.0.0.1:18481/get"), { ok: (r) => r.status === 200 && data.users.length === 2 });
}
