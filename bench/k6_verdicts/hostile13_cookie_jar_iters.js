// args: -u 1 -i 3
// A jar from http.cookieJar() set per iteration: k6 empties the VU's jar between iterations.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const jar = http.cookieJar();
  const before = jar.cookiesForURL("http://127.0.0.1:18481/");
  jar.set("http://127.0.0.1:18481/", "iter", String(__ITER));
  const res = http.get("http://127.0.0.1:18481/cookies");
  check(res, {
    "jar empty at start": () => before.iter === undefined,
    "this iteration's cookie": (r) => r.json("cookies.iter") === String(__ITER),
  });
}
