import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { parseHTML } from "./html.ts";

const PAGE = `<html><head><title>T</title></head><body>
<ul id="links"><li class="item">One</li><li class="item special"><a href="/2">Two</a></li><li class="item">Three</li></ul>
<form><input type="hidden" name="csrf" value="tok"><input type="checkbox" name="remember" value="yes" checked>
<input type="checkbox" name="kept" value="k" checked="checked"><input name="off" value="x" disabled>
<input type="submit" name="go" value="1"><select name="ship"><option value="p" selected>P</option></select></form>
</body></html>`;

/** A page as a script sees it: each of k6's methods called by name (most are set from tables). */
type Js = { [name: string]: (...args: unknown[]) => Js };
const page = () => parseHTML(PAGE) as unknown as Js;

Deno.test("k6's Selection traversals give what goquery's do", () => {
  const doc = page(), items = doc.find("li"), link = doc.find("a");
  assertEquals(link.closest("ul").attr("id"), "links");
  assertEquals(items.first().next().text(), "Two");
  assertEquals(items.first().nextAll().text(), "TwoThree");
  assertEquals(items.last().prev().text(), "Two");
  assertEquals(items.last().prevAll(".special").text(), "Two");
  assertEquals(items.first().nextUntil(items.last()).text(), "Two");
  assertEquals(items.not(".special").text(), "OneThree");
  assertEquals(items.has("a").text(), "Two");
  assertEquals(items.slice(1, 2).text(), "Two");
  // get() with no index is every element; index() is among the siblings, or among a selector's, else -1.
  assertEquals((items.get() as unknown as Js[]).map((e) => e.textContent()), ["One", "Two", "Three"]);
  assertEquals([items.eq(2).index(), items.index(".special"), items.eq(1).index(".special")], [2, -1, 0]);
  assertEquals([link.parents().size(), items.eq(1).siblings().size(), items.parent().children().size()], [
    4,
    2,
    3,
  ]);
});

Deno.test("a form serializes as k6 v1.8.1: a bare checked or disabled attribute is not k6's", () => {
  const form = page().find("form");
  assertEquals(form.serializeArray(), [
    { name: "csrf", value: "tok" },
    { name: "kept", value: "k" },
    { name: "off", value: "x" },
    { name: "ship", value: "p" },
  ]);
  assertEquals(form.serializeObject(), { csrf: "tok", kept: "k", off: "x", ship: "p" });
  assertEquals(form.serialize(), "csrf=tok&kept=k&off=x&ship=p");
});

Deno.test("an Element's DOM methods: its kind, classes, children and relatives", () => {
  const doc = page(), ul = doc.find("ul").get(0), li = doc.find("li").get(1);
  assertEquals([ul.nodeType(), ul.childElementCount(), ul.children().length, ul.hasChildNodes()], [
    1,
    3,
    3,
    true,
  ]);
  assertEquals([li.classList(), li.getAttribute("class"), li.hasAttribute("id")], [
    ["item", "special"],
    "item special",
    false,
  ]);
  assertEquals(ul.firstElementChild().textContent(), "One");
  assertEquals(ul.lastElementChild().textContent(), "Three");
  assertEquals(li.previousElementSibling().textContent(), "One");
  assertEquals(li.parentElement().id(), "links");
  assertEquals(ul.querySelector("a").getAttribute("href"), "/2");
  assertEquals(ul.querySelector("table"), undefined);
  assertEquals(ul.ownerDocument().nodeName(), "#document");
  assertEquals(ul.getElementsByClassName("special").length, 1);
  // k6 v1.8.1's contains() is false for any element.
  assertEquals([ul.contains(ul.querySelector("a")), li.matches(".special")], [false, true]);
});

Deno.test("map() leaves out an element whose function throws, as k6's; each() passes the throw on", () => {
  const items = parseHTML(PAGE).find("li");
  const texts = items.map((i, li) => {
    if (i === 1) throw new TypeError("li.textContent is not a function");
    return li.text();
  });
  assertEquals(texts, ["One", "Three"]);
  let thrown = "";
  try {
    items.each(() => {
      throw new Error("boom");
    });
  } catch (err) {
    thrown = String(err);
  }
  assertEquals(thrown, "Error: boom");
});

Deno.test("filter(fn) hands fn goquery's selection, as k6: attr a pair, hasClass its own", () => {
  const items = parseHTML(PAGE).find("li");
  assertEquals(items.filter((_i, s) => s.text() === "Two").size(), 1);
  assertEquals(items.filter((i) => i > 0).text(), "TwoThree");
  assertEquals(items.filter((_i, s) => s.hasClass("special")).text(), "Two");
  let pair: unknown;
  items.filter((_i, s) => (pair = s.attr("class"), true));
  assertEquals(pair, ["item", true]);
  assertEquals(items.filter(".special").size(), 1);
});
