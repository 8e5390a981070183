// args: -u 3 -i 3
// __VU and __ITER in init code: each VU's own init sees its number, the first (options) init sees 0.
import http from "k6/http";
import { check } from "k6";

const initVU = __VU;
const initIter = typeof __ITER;

export const options = { thresholds: { checks: ["rate==1"], "checks{check:init iter}": ["rate==1"] } };

export default function () {
  check(null, {
    "init vu": () => initVU === __VU && __VU >= 1 && __VU <= 3,
    "init iter": () => initIter === "number",
    "iter": () => __ITER === 0,
  });
  http.get(`http://127.0.0.1:18481/get?vu=${initVU}&iter=${initIter}`);
}

export function teardown() {
  check(null, { "teardown vu": () => __VU === 0 });
}
