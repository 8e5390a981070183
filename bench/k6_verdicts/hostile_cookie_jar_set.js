// args: -i 2
// The VU's jar set by hand, read back by cookiesForURL, sent to the server; a response's cookie kept.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const jar = http.cookieJar();
  jar.set(BASE, "session", "s-123");
  check(jar.cookiesForURL(BASE), { "jar has it": (c) => c.session[0] === "s-123" });
  const r = http.get(`${BASE}/cookies`);
  check(r, { "sent": (x) => x.json("cookies.session") === "s-123" });
  http.get(`${BASE}/cookies/set?flavour=oat`);
  check(jar.cookiesForURL(`${BASE}/cookies`), {
    "kept from response": (c) => c.flavour && c.flavour[0] === "oat",
  });
  jar.delete(BASE, "session");
  const after = http.get(`${BASE}/cookies`);
  check(after, { "deleted": (x) => x.json("cookies.session") === undefined });
}
