// args: -i 2
// k6/html: find(), each(), map(), filter(), attr(), data() and the links followed.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"], http_reqs: ["count==8"] } };

export default function () {
  const doc = http.get("http://127.0.0.1:18481/html").html();
  const links = [];
  doc.find("li.item a").each((_i, el) => links.push(el.getAttribute("href")));
  const texts = doc.find("li.item a").toArray().map((s) => s.text());
  const special = doc.find("li.item").filter(".special").find("a");
  for (const href of links.slice(0, 3)) http.get(`http://127.0.0.1:18481${href}`);
  check(doc, {
    "three links": () => links.length === 3,
    "texts": () => texts.join() === "One,Two,Three",
    "special": () => special.attr("data-id") === "2" && special.data("id") === 2,
    "csrf meta": () => doc.find("meta[name=csrf]").attr("content") === "tok-123",
    "last": () => doc.find("li.item a").last().attr("rel") === "next",
    "title": () => doc.find("h1").text().includes("Moby-Dick"),
  });
}
