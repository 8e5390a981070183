// args: -i 2
// A login page's form submitted with res.submitForm (hidden fields kept, one field replaced, the button's
// name sent) and a link followed with res.clickLink; the page is served back by the app's /echo.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const PAGE = `<html><body><a class="next" href="/get?from=link">Next</a>
<form id="login" action="/post" method="POST">
  <input name="user" value="ann"><input type="hidden" name="csrf" value="t0k">
  <input type="checkbox" name="remember" value="yes"><input type="checkbox" name="terms" value="ok" checked="checked">
  <input type="checkbox" name="bare" checked><input type="radio" name="plan" checked="checked">
  <select name="lang"><option value="en">en</option><option value="de" selected>de</option></select>
  <textarea name="note">hi</textarea>
  <input type="submit" name="go" value="Sign in">
</form>
<form id="search" action="/get"><input name="q" value="k6"></form></body></html>`;

export const options = { thresholds: { checks: ["rate==1"], http_reqs: ["count==8"] } };

export default function () {
  const page = http.post(`${BASE}/echo`, PAGE, { headers: { "Content-Type": "text/html" } });
  const next = page.clickLink({ selector: "a.next" });
  const login = page.submitForm({ formSelector: "#login", fields: { user: "bob" } });
  const search = page.submitForm({ formSelector: "#search", fields: { q: "load" } });
  check(next, { "link followed": (r) => r.json("args.from") === "link" });
  check(login, {
    "replaced field": (r) => r.json("form.user") === "bob",
    "hidden field": (r) => r.json("form.csrf") === "t0k",
    "button sent": (r) => r.json("form.go") === "Sign in",
    "unchecked left out": (r) => r.json("form.remember") === undefined,
    "checked sent": (r) => r.json("form.terms") === "ok" && r.json("form.plan") === "on",
    // As k6 v1.8.1 serializes a form: a bare `checked` (an empty value) is not checked.
    "bare checked left out": (r) => r.json("form.bare") === undefined,
    "select and textarea": (r) => r.json("form.lang") === "de" && r.json("form.note") === "hi",
  });
  check(search, {
    "GET form in the query": (r) => r.json("args.q") === "load" && r.request.method === "GET",
  });
}
