// args: -u 3 -i 6
// A SharedArray from a JSON file's nested list: filter, map, length, an index past the end, a copy.
import http from "k6/http";
import { check } from "k6";
import { SharedArray } from "k6/data";
import exec from "k6/execution";

const users = new SharedArray("users", () => JSON.parse(open("./data/h10_users.json")).users);

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const me = users[(exec.vu.idInTest - 1) % users.length];
  const r = http.get(`http://127.0.0.1:18481/get?name=${me.name}`);
  check(r, { "named": (res) => res.json("args.name") === me.name });
  check(users, {
    "length": (u) => u.length === 3,
    "filter": (u) => u.filter((x) => x.role === "user").length === 2,
    "map": (u) => u.map((x) => x.name).join() === "ann,bob,cy",
    "past the end": (u) => u[5] === undefined,
    "nested array": (u) => u[2].tags[1] === "c",
    "keys": (u) => Object.keys(u[0]).join() === "name,role,tags",
  });
}
