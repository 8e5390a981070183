// args: -i 1
// console.log of objects, arrays, a Map, an Error and an object that refers to itself.
import http from "k6/http";
import { Counter } from "k6/metrics";

const reached = new Counter("reached");

export const options = { thresholds: { reached: ["count==1"] } };

export default function () {
  const res = http.get("http://127.0.0.1:18481/get");
  const loop = { name: "loop" };
  loop.self = loop;
  console.log({ status: res.status, nested: { a: [1, 2, { b: null }] } });
  console.log([1, "two", undefined], new Map([["k", 1]]), new Error("shown"));
  console.log(loop);
  console.warn(res.headers);
  reached.add(1);
}
