// args: -i 2
// A request's cookies beside the VU jar's: replace true overrides the jar's, false sends both.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const jar = http.cookieJar();
  jar.set("http://127.0.0.1:18481", "mode", "jar");
  const replaced = http.get("http://127.0.0.1:18481/cookies", {
    cookies: { mode: { value: "param", replace: true } },
  });
  const both = http.get("http://127.0.0.1:18481/headers", { cookies: { mode: "param" } });
  check(null, {
    "replaced": () => replaced.json("cookies.mode") === "param",
    "both sent": () =>
      /mode=jar/.test(both.json("headers.Cookie")) && /mode=param/.test(both.json("headers.Cookie")),
  });
}
