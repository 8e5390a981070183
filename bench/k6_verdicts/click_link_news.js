// args: -i 2
// Browsing as a crawler does: parse a page, follow its first article with res.clickLink.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18482";

export const options = {
  thresholds: { checks: ["rate==1"], http_reqs: ["count==4"] },
};

export default function () {
  const page = http.get(`${BASE}/static/news.html`);
  const links = page.html().find("li a");
  check(page, {
    "twelve links": () => links.size() === 12,
    "first link": () => links.first().attr("href").endsWith("?n=0"),
  });
  const next = page.clickLink({ selector: "li a" });
  check(next, {
    "followed link": (r) => r.url.includes("/static/about.html?n=0"),
  });
}
