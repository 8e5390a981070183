// args: -i 2
// res.html() as k6's goquery Selection: find, size, attr, text, eq, each, map, children, first/last, val.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const doc = http.get("http://127.0.0.1:18481/html").html();
  const links = doc.find("a");
  const hrefs = [];
  links.each((_i, el) => hrefs.push(el.getAttribute("href")));
  check(doc, {
    "title": (d) => d.find("title").text().length > 0,
    "links": () => links.size() > 0 && links.size() === hrefs.length,
    "attr": () => links.first().attr("href") === hrefs[0],
    "eq": () => links.eq(0).attr("href") === hrefs[0] && links.last().attr("href") === hrefs.at(-1),
    "map": () => links.map((_i, s) => s.attr("href")).length === hrefs.length,
    "missing attr": () => links.first().attr("data-none") === undefined,
    "none found": (d) => d.find("table.none").size() === 0 && d.find("table.none").text() === "",
    "form": (d) => d.find("form").size() >= 1,
  });
}
