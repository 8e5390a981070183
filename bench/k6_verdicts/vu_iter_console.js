// args: -u 3 -i 9
// __VU/__ITER arithmetic picks the data; console.log of objects; a check object of many functions with tags.
import http from "k6/http";
import { check } from "k6";
import exec from "k6/execution";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18482";

export const options = {
  thresholds: {
    "checks{part:ids}": ["rate==1"],
    "checks{part:body}": ["rate>0.5"],
  },
};

export default function () {
  const slot = (__VU - 1) * 100 + __ITER;
  const res = http.get(
    `${BASE}/get?slot=${slot}&g=${exec.scenario.iterationInTest}`,
  );
  console.log({ vu: __VU, iter: __ITER, slot, status: res.status });
  check(res, {
    "vu counted from 1": () => __VU >= 1 && __VU <= 3,
    "slot echoed": (r) => Number(r.json("args.slot")) === slot,
    "global index known": (r) => Number(r.json("args.g")) < 9,
  }, { part: "ids" });
  check(res, {
    "even slot": () => slot % 2 === 0,
    "has url": (r) => r.json("url").includes("/get"),
  }, { part: "body" });
}
