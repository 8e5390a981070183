// args: -u 1 -i 2
// A check whose callbacks were written async by habit: k6 does not await them, a promise is truthy.
import http from "k6/http";
import { check } from "k6";

export const options = {
  thresholds: { "checks{check:async false}": ["rate==1"], "checks{check:sync false}": ["rate==0"] },
};

export default function () {
  const res = http.get("http://127.0.0.1:18481/get");
  // deno-lint-ignore require-await -- the habit under trial: a condition written async, never awaited
  check(res, { "async false": async () => false, "sync false": () => false });
}
