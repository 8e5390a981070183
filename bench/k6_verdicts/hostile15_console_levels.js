// args: -i 2
// console's levels and values (undefined, an Error, a Map, a cycle) never end an iteration.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"], iterations: ["count==2"] } };

export default function () {
  const cycle = { a: 1 };
  cycle.self = cycle;
  console.debug("debug line", __ITER);
  console.info("info", undefined, null);
  console.warn(new Error("a warning"));
  console.error("error", { nested: { deep: [1, 2] } }, new Map([["k", 1]]));
  console.log(cycle);
  console.trace && console.log("trace exists");
  check(http.get("http://127.0.0.1:18481/get"), { "after console": (r) => r.status === 200 });
}
