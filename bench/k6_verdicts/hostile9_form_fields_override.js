// args: -u 1 -i 2
// submitForm with fields that override and add to the page's own, a named submit button, clickLink by
// selector; httpbin's echo judged.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"], http_reqs: ["count==8"] } };

export default function () {
  const page = http.get("http://127.0.0.1:18481/html");
  const sent = page.submitForm({
    formSelector: "form#login",
    fields: { user: "ishmael", extra: "1" },
    submitSelector: "button[name=go]",
  });
  check(sent, {
    "overridden": (r) => r.json("form.user") === "ishmael",
    "kept hidden": (r) => r.json("form.csrf") === "tok-123",
    "added": (r) => r.json("form.extra") === "1",
    "button sent": (r) => r.json("form.go") === "1",
  });
  const next = page.clickLink({ selector: 'a[rel="next"]' });
  check(next, { "third page": (r) => r.json("args.page") === "3" });
  const second = page.clickLink({ selector: "li.special a", params: { tags: { link: "two" } } });
  check(second, { "second page": (r) => r.json("args.page") === "2" });
}
