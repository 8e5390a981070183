// args: -u 1 -i 2
// Handlers that send requests, handed to a method of an object a local module exports and run later by it.
import http from "k6/http";
import { check } from "k6";
import { bus } from "./lib/h9/bus.js";

bus.on((name) => {
  const res = http.get(`http://127.0.0.1:18481/get?event=${name}`, { tags: { via: "bus" } });
  check(res, { "event echoed": (r) => r.json("args.event") === name });
});

export const options = { thresholds: { "http_reqs{via:bus}": ["count==4"], checks: ["rate==1"] } };

export default function () {
  bus.emit("login");
  bus.emit("logout");
}
