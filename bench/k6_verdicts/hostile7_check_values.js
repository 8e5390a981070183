// args: -i 2
// check() with callbacks returning numbers, strings, null, objects and undefined, and plain values.
import http from "k6/http";
import { check } from "k6";

export const options = {
  thresholds: { "checks{kind:truthy}": ["rate==1"], "checks{kind:falsy}": ["rate==0"] },
};

export default function () {
  const res = http.get("http://127.0.0.1:18481/get?x=1");
  check(res, {
    "a status": (r) => r.status,
    "a string": (r) => r.json("args.x"),
    "an object": (r) => r.json("args"),
    "an empty array": () => [],
    "a plain true": true,
  }, { kind: "truthy" });
  check(res, {
    "zero": () => 0,
    "empty string": () => "",
    "null": () => null,
    "nothing returned": () => {},
    "NaN": () => NaN,
    "a plain 0": 0,
  }, { kind: "falsy" });
}
