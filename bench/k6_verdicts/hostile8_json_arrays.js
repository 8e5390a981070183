// args: -u 1 -i 2
// Checks over res.json() arrays: length, every, some, find, map; a body of an array at the top.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"], "checks{kind:array}": ["rate==1"] } };

export default function () {
  const items = [{ id: 1, tags: ["a"] }, { id: 2, tags: ["b", "c"] }, { id: 3, tags: [] }];
  const res = http.post("http://127.0.0.1:18481/anything/items", JSON.stringify(items));
  const list = res.json("data") ? JSON.parse(res.json("data")) : [];
  check(list, {
    "three items": (l) => l.length === 3,
    "all have ids": (l) => l.every((i) => typeof i.id === "number"),
    "some tagged c": (l) => l.some((i) => i.tags.includes("c")),
    "found id 2": (l) => l.find((i) => i.id === 2).tags.length === 2,
  }, { kind: "array" });
  const echoed = http.post("http://127.0.0.1:18481/post", JSON.stringify(items)).json();
  check(echoed, {
    "json is array": (b) => Array.isArray(b.json) && b.json.length === 3,
    "ids mapped": (b) => b.json.map((i) => i.id).join(",") === "1,2,3",
    "path query on array": () =>
      http.post("http://127.0.0.1:18481/post", JSON.stringify(items)).json("json.#") === 3,
  }, { kind: "array" });
}
