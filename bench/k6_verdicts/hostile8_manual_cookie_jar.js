// args: -u 1 -i 2
// A jar made by http.cookieJar() passed per request, beside the VU's own; cookies read back from each.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const mine = new http.CookieJar();
  mine.set("http://127.0.0.1:18481", "session", `s${__ITER}`);
  const withMine = http.get("http://127.0.0.1:18481/cookies", { jar: mine });
  const vuJar = http.cookieJar();
  vuJar.set("http://127.0.0.1:18481", "lang", "en");
  const withVu = http.get("http://127.0.0.1:18481/cookies");
  http.get("http://127.0.0.1:18481/cookies/set?cart=7", { jar: mine });
  check(null, {
    "own jar sent": () => withMine.json("cookies.session") === `s${__ITER}` && !withMine.json("cookies.lang"),
    "vu jar sent": () => withVu.json("cookies.lang") === "en" && !withVu.json("cookies.session"),
    "own jar kept set-cookie": () => mine.cookiesForURL("http://127.0.0.1:18481/")["cart"][0] === "7",
    "vu jar untouched": () => vuJar.cookiesForURL("http://127.0.0.1:18481/")["cart"] === undefined,
  });
}
