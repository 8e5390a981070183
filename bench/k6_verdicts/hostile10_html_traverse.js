// args: -u 1 -i 2
// res.html() traversals: toArray, eq, first/last, children, parent, data() of a data-* attribute.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const doc = http.get("http://127.0.0.1:18481/html").html();
  const items = doc.find("li.item");
  check(doc, {
    "size": () => items.size() === 3,
    "ids": () => items.toArray().map((e) => e.find("a").attr("data-id")).join() === "1,2,3",
    "eq text": () => items.eq(1).text() === "Two",
    "last href": () => items.last().find("a").attr("href") === "/get?page=3",
    "children": () => doc.find("#links").children().size() === 3,
    "parent id": () => items.first().parent().attr("id") === "links",
    "data number": () => doc.find("h1").data("version") === 3,
    "meta": () => doc.find("meta[name=csrf]").attr("content") === "tok-123",
    "is special": () => items.eq(1).is(".special") && !items.eq(0).is(".special"),
  });
}
