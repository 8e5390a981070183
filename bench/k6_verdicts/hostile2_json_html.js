// args: -i 2
// Reading responses as teams do: res.json() with nested and array selectors, res.html() with find,
// attr, each, map (whose callback throws on one call: k6 leaves that element out), a select's value.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const body = { items: [{ id: 7, tags: ["a", "b"] }, { id: 9, tags: [] }], meta: { "total-count": 2 } };
  const res = http.post(`${BASE}/post`, JSON.stringify(body), {
    headers: { "Content-Type": "application/json" },
  });
  check(res, {
    "first id": (r) => r.json("json.items.0.id") === 7,
    "count": (r) => r.json("json.items.#") === 2,
    "ids": (r) => JSON.stringify(r.json("json.items.#.id")) === "[7,9]",
    "dashed key": (r) => r.json("json.meta.total-count") === 2,
    "missing is undefined": (r) => r.json("json.nope") === undefined,
    "whole": (r) => r.json().json.items[1].id === 9,
  });
  const page = http.get(`${BASE}/html`);
  const doc = page.html();
  const links = [];
  doc.find("ul#links a").each((_i, a) => links.push(a.getAttribute("href")));
  check(page, {
    "title": () => doc.find("title").text() === "Bench page",
    "h1 data": () => doc.find("h1").attr("data-version") === "3",
    "three links": () => links.length === 3 && links[2] === "/get?page=3",
    "csrf": () => doc.find("input[name=csrf]").first().attr("value") === "tok-123",
    "mapped": () => doc.find("li.item").map((_i, li) => li.textContent()).join(",") === "One,Two,Three",
    "selected": () => doc.find("select[name=ship] option[selected]").val() === "pequod",
  });
}
