// args: -u 1 -i 2
// setup()'s data reaches the VUs and teardown() as k6 sends it: a Date as its text, an undefined field and
// an array's hole as null, a Map as its pairs, a Set as its values.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"], "checks{phase:teardown}": ["rate==1"] } };

export function setup() {
  const res = http.get("http://127.0.0.1:18481/get?token=abc");
  return {
    token: res.json("args.token"),
    when: new Date(0),
    skip: undefined,
    seen: new Map([["a", 1]]),
    roles: new Set(["admin", "viewer"]),
    ids: [1, undefined, 3],
  };
}

function judge(data, phase) {
  check(data, {
    "token kept": (d) => d.token === "abc",
    "date as text": (d) => d.when === "1970-01-01T00:00:00Z",
    "undefined as null": (d) => d.skip === null,
    "array hole as null": (d) => d.ids[1] === null,
    "map as pairs, set as values": (d) => d.seen[0][0] === "a" && d.roles.join() === "admin,viewer",
  }, { phase });
}

export default function (data) {
  judge(data, "load");
  http.get(`http://127.0.0.1:18481/get?token=${data.token}`);
}

export function teardown(data) {
  judge(data, "teardown");
}
