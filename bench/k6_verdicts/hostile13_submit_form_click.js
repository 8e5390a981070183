// args: -u 1 -i 2
// A page's form submitted with res.submitForm (fields overridden) and a link followed with res.clickLink.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"], http_reqs: ["count==6"] } };

export default function () {
  const page = http.get("http://127.0.0.1:18481/html");
  const posted = page.submitForm({ formSelector: "#login", fields: { user: "ishmael" } });
  const next = page.clickLink({ selector: "a[rel=next]" });
  check(posted, {
    "form posted": (r) => r.status === 200,
    "field overridden": (r) => r.json("form.user") === "ishmael",
    "hidden kept": (r) => r.json("form.csrf") === "tok-123",
  });
  check(next, { "link followed": (r) => r.json("args.page") === "3" });
}
