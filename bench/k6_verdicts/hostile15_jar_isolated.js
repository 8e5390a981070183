// args: -i 2
// A new CookieJar passed as jar keeps its cookies apart from the VU's; the server's Set-Cookie lands in it.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const own = new http.CookieJar();
  http.get("http://127.0.0.1:18481/cookies/set?flavour=mint", { jar: own, redirects: 0 });
  const vu = http.get("http://127.0.0.1:18481/cookies");
  const mine = http.get("http://127.0.0.1:18481/cookies", { jar: own });
  check(null, {
    "vu jar lacks it": () => vu.json("cookies.flavour") === undefined,
    "own jar has it": () => mine.json("cookies.flavour") === "mint",
    "cookiesForURL": () => own.cookiesForURL("http://127.0.0.1:18481/").flavour[0] === "mint",
  });
}
