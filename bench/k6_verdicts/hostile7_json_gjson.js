// args: -i 1
// res.json() selectors past plain paths: counts, array projections, queries and a missing key.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const items = [{ id: 1, name: "a" }, { id: 2, name: "b" }, { id: 3, name: "c" }];
  const res = http.post("http://127.0.0.1:18481/post", JSON.stringify({ items }), {
    headers: { "Content-Type": "application/json" },
  });
  check(res, {
    "count": (r) => r.json("json.items.#") === 3,
    "projection": (r) => r.json("json.items.#.id").join() === "1,2,3",
    "index": (r) => r.json("json.items.1.name") === "b",
    "query": (r) => r.json("json.items.#(id==2).name") === "b",
    "all matches": (r) => r.json("json.items.#(id>1)#.name").join() === "b,c",
    "like": (r) => r.json('json.items.#(name%"c*").id') === 3,
    "no match": (r) => r.json("json.items.#(id==9).name") === undefined,
    "missing": (r) => r.json("json.nothing") === undefined,
    "whole": (r) => r.json().json.items.length === 3,
  });
}
