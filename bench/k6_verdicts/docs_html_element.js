// args: -u 1 -i 2
// k6's documentation's Element: the DOM nodes a Selection's get() returns, read as scripts read them.
import http from "k6/http";
import { parseHTML } from "k6/html";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const res = http.get(`${BASE}/html`);
  const doc = parseHTML(res.body);
  const h1 = doc.find("h1").get(0);
  const link = doc.find("a").get(1);
  const ul = doc.find("ul").get(0);
  check(h1, {
    "nodeName": (e) => e.nodeName() === "h1",
    "id": (e) => e.id() === "top",
    "className": (e) => e.className() === "title main",
    "classList": (e) => e.classList().join(" ") === "title main",
    "getAttribute": (e) => e.getAttribute("data-version") === "3",
    "hasAttribute": (e) => e.hasAttribute("id") && !e.hasAttribute("lang"),
    "attributes": (e) => e.attributes().id.value === "top",
    "textContent": (e) => e.textContent() === "Herman Melville - Moby-Dick",
    "nodeType": (e) => e.nodeType() === 1,
    "hasChildNodes": (e) => e.hasChildNodes(),
  });
  check(link, {
    "href": (e) => e.getAttribute("href") === "/get?page=2",
    "parentElement": (e) => e.parentElement().classList().includes("special"),
    "previousElementSibling of li": (e) => e.parentElement().previousElementSibling().textContent() === "One",
  });
  check(ul, {
    "childElementCount": (e) => e.childElementCount() === 3,
    "children": (e) => e.children().length === 3,
    "firstElementChild": (e) => e.firstElementChild().textContent() === "One",
    "lastElementChild": (e) => e.lastElementChild().textContent() === "Three",
    "querySelector": (e) => e.querySelector("a[rel]").textContent() === "Three",
    "querySelectorAll": (e) => e.querySelectorAll("a").length === 3,
    "getElementsByTagName": (e) => e.getElementsByTagName("li").length === 3,
    "contains": (e) => e.contains(e.querySelector("a")),
    "ownerDocument": (e) => e.ownerDocument().nodeName() === "#document",
  });
}
