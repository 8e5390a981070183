// args: -i 2
// check() on undefined, with an empty set, with values that are not functions, and its return value.
import { check } from "k6";

export const options = {
  thresholds: {
    "checks{check:undefined ok}": ["rate==1"],
    "checks{check:literal true}": ["rate==1"],
    "checks{check:literal zero}": ["rate==0"],
    "checks{check:returned}": ["rate==1"],
  },
};

export default function () {
  const r = check(undefined, { "undefined ok": (v) => v === undefined });
  const empty = check({}, {});
  check(null, { "literal true": true, "literal zero": 0 });
  check(null, { "returned": () => r === true && empty === true });
}
