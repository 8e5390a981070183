// args: -u 1 -i 2
// k6's documentation's Selection methods, one check each, on httpbin's /html page as served here.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const doc = http.get(`${BASE}/html`).html();
  const items = doc.find("li.item");
  check(doc, {
    "title text": (d) => d.find("title").text() === "Bench page",
    "size": () => items.size() === 3,
    "eq then text": () => items.eq(1).text() === "Two",
    "first and last": () => items.first().text() === "One" && items.last().text() === "Three",
    "attr": () => doc.find("a[rel=next]").attr("href") === "/get?page=3",
    "attr default": () => doc.find("h1").attr("nope", "none") === "none",
    "data": () => doc.find("h1").data("version") === 3,
    "data of all": () => doc.find("h1").data().version === 3,
    "children": () => doc.find("ul").children().size() === 3,
    "children filtered": () => doc.find("ul").children(".special").text() === "Two",
    "closest": () => doc.find("a").first().closest("ul").attr("id") === "links",
    "parent": () => doc.find("a").first().parent().is("li"),
    "parents": () => doc.find("a").first().parents().size() >= 3,
    "next": () => items.first().next().text() === "Two",
    "nextAll": () => items.first().nextAll().size() === 2,
    "prev": () => items.last().prev().text() === "Two",
    "prevAll": () => items.last().prevAll().size() === 2,
    "nextUntil": () => items.first().nextUntil(".item:last-child").size() === 1,
    "not": () => items.not(".special").size() === 2,
    "filter": () => items.filter(".special").size() === 1,
    "has": () => doc.find("li").has("a[rel]").size() === 1,
    "is": () => items.eq(1).is(".special"),
    "slice": () => items.slice(1).size() === 2 && items.slice(0, 1).text() === "One",
    "map": () => items.map((_i, el) => el.text()).join(",") === "One,Two,Three",
    "each": () => {
      const seen = [];
      items.each((i, el) => seen.push(`${i}:${el.textContent()}`));
      return seen.join(" ") === "0:One 1:Two 2:Three";
    },
    "toArray": () => items.toArray().length === 3 && items.toArray()[2].text() === "Three",
    "get": () => items.get(0).textContent() === "One",
    "contents": () => doc.find("h1").contents().size() === 1,
    "html": () => doc.find("li.special").html().includes('data-id="2"'),
    "val of input": () => doc.find("input[name=user]").val() === "ahab",
    "val of select": () => doc.find("select").val() === "pequod",
    "val of textarea": () => doc.find("textarea").val() === "call me Ishmael",
    "serialize": () => doc.find("form").serialize().includes("user=ahab"),
    "serializeArray": () =>
      doc.find("form").serializeArray().some((f) => f.name === "ship" && f.value === "pequod"),
    "serializeObject": () => doc.find("form").serializeObject().remember === "yes",
    "missing selects nothing": () => doc.find("table").size() === 0 && doc.find("table").text() === "",
  });
}
