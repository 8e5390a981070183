// args: -i 4
// Custom metrics fed what scripts feed them: a Rate of check() results, booleans, numbers and strings, a
// Counter of numeric strings, a Trend of booleans; a value that is no number is dropped with a warning.
import http from "k6/http";
import { check } from "k6";
import { Counter, Rate, Trend } from "k6/metrics";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const okRate = new Rate("ok_rate");
const mixed = new Rate("mixed_rate");
const seen = new Counter("seen_units");
const flags = new Trend("flag_trend");

export const options = {
  thresholds: {
    ok_rate: ["rate==1"],
    mixed_rate: ["rate>0.49", "rate<0.51"],
    seen_units: ["count==20"],
    flag_trend: ["avg==0.5", "max==1", "min==0"],
  },
};

export default function () {
  const res = http.get(`${BASE}/json`);
  okRate.add(check(res, { "status 200": (r) => r.status === 200 }));
  mixed.add(true);
  mixed.add(0);
  mixed.add(2);
  mixed.add("");
  mixed.add("yes");
  mixed.add(undefined);
  seen.add("5");
  flags.add(true);
  flags.add(false);
}
