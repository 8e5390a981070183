// args: -u 1 -i 2
// res.html() queried with find, attr, data, each and eq, as teams scrape a page for its links and token.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"], "http_reqs{name:next}": ["count==2"] } };

export default function () {
  const doc = http.get("http://127.0.0.1:18481/html").html();
  const hrefs = [];
  doc.find("#links a").each((_i, a) => hrefs.push(a.getAttribute("href")));
  const next = doc.find("a[rel=next]").attr("href");
  check(doc, {
    "three links": () => hrefs.length === 3,
    "token": (d) => d.find("meta[name=csrf]").attr("content") === "tok-123",
    "title": (d) => d.find("h1").text().includes("Moby"),
    "data version": (d) => d.find("h1").data("version") === 3,
    "second": (d) => d.find("li").eq(1).hasClass("special"),
    "missing attr": (d) => d.find("h1").attr("nope") === undefined,
  });
  http.get(`http://127.0.0.1:18481${next}`, { tags: { name: "next" } });
}
