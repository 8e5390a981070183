// args: -u 1 -i 2
// A page's links and form read with res.html(): find, each, toArray, attr, text, size; one check fails.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { "checks{page:html}": ["rate>0.7"] } };

export default function () {
  const res = http.get("http://127.0.0.1:18481/html");
  const doc = res.html();
  const hrefs = [];
  doc.find("a").each((_i, el) => hrefs.push(el.getAttribute("href") || ""));
  const forms = doc.find("form").toArray();
  check(doc, {
    "has links": () => hrefs.length > 0,
    "form found": () => forms.length >= 1,
    "title text": (d) => typeof d.find("title").text() === "string",
    "no table": (d) => d.find("table").size() === 0,
    "missing nav": (d) => d.find("nav").size() > 0,
  }, { page: "html" });
}
