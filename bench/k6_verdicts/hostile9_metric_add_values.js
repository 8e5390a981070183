// args: -u 1 -i 1
// What a custom metric makes of what it is fed: booleans, numeric and blank strings, an array, null and
// text (the last two refused with a warning, add() answering false).
import { Counter, Rate, Trend } from "k6/metrics";
import { check } from "k6";

const fed = new Counter("fed_total");
const ok = new Rate("fed_ok");
const sizes = new Trend("fed_sizes");

export const options = {
  thresholds: {
    fed_total: ["count==19"],
    fed_ok: ["rate>0.66", "rate<0.67"],
    fed_sizes: ["max==12", "min==0", "avg>3.24", "avg<3.26"],
    checks: ["rate==1"],
  },
};

export default function () {
  const answers = [true, "12", "0", " ", [], null, "abc", 3].map((v) => fed.add(v));
  [true, false, 2, -1, 0, 0.5, "x1"].forEach((v) => ok.add(v));
  ["12", true, 0, false].forEach((v) => sizes.add(v));
  check(answers, {
    "null and text refused": (a) => a[5] === false && a[6] === false,
    "others taken": (a) => a.filter((x) => x === true).length === 6,
  });
}
