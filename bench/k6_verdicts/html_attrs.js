// args: -i 2
// k6/html: links, inputs and a table read by selector (attr, text, each, eq, children), a value posted back.
import http from "k6/http";
import { parseHTML } from "k6/html";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const PAGE = `<html><head><title> Shop </title></head><body>
<a class="nav" href="/a" data-id="1">First</a><a class="nav" href="/b" data-id="2">Second</a>
<form action="/post"><input name="csrf" value="tok-42"><input name="q" type="text"></form>
<table id="t"><tr><td>x</td><td>y</td></tr><tr><td>z</td></tr></table></body></html>`;

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const doc = parseHTML(PAGE);
  const hrefs = [];
  doc.find("a.nav").each((_, el) => hrefs.push(el.getAttribute("href")));
  const csrf = doc.find("input[name=csrf]").attr("value");
  const res = http.post(`${BASE}/post`, { csrf });
  check(res, {
    "csrf posted": (r) => r.json("form.csrf") === "tok-42",
    "title text": () => doc.find("title").text().trim() === "Shop",
    "hrefs in order": () => hrefs.join() === "/a,/b",
    "second link": () => doc.find("a").eq(1).text() === "Second",
    "data attribute": () => doc.find("a").last().data("id") === 2,
    "cells": () => doc.find("#t td").size() === 3,
    "form action": () => doc.find("form").attr("action") === "/post",
    "missing attr": () => doc.find("input[name=q]").attr("value") === undefined,
  });
}
