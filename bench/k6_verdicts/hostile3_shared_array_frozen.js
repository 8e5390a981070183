// args: -i 2
// A SharedArray's items changed by a script that thinks they are its own (k6 freezes them), and array
// methods used on it.
import http from "k6/http";
import { check } from "k6";
import { SharedArray } from "k6/data";

const users = new SharedArray("users", () => [{ name: "ann", roles: ["a"] }, { name: "bob", roles: [] }]);

export default function () {
  const u = users[0];
  let threw = "";
  try {
    u.name = "changed";
  } catch (e) {
    threw = String(e);
  }
  console.log(`after write: ${u.name} threw: ${threw}`);
  const names = users.map((x) => x.name).join(",");
  const res = http.get(`http://127.0.0.1:18481/get?names=${names}`);
  check(res, {
    "write refused": () => threw !== "",
    "name unchanged": () => users[0].name === "ann",
    "names": (r) => r.json("args.names") === "ann,bob",
    "filter works": () => users.filter((x) => x.roles.length > 0).length === 1,
  });
}
