// args: -q -u 1 -i 2
// console.log, info, warn, error, debug with -q: logs still go to stderr; the verdict is the thresholds'.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"], iterations: ["count==2"] } };

export function setup() {
  console.info("setup", { at: "init" });
  return { started: 1 };
}

export default function (data) {
  const res = http.get("http://127.0.0.1:18481/get");
  console.log(`iter ${__ITER} status`, res.status);
  console.debug("debug is hidden without -v");
  if (res.status !== 200) console.error("bad status", res.status);
  console.warn("warn", JSON.stringify({ iter: __ITER }));
  check(data, { "setup data": (d) => d.started === 1 });
}
