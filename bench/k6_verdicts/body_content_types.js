// args: -i 2
// The Content-Type k6 sends for a string body (none), an object body (form) and a JSON one set by hand.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18482";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const text = http.post(`${BASE}/post`, JSON.stringify({ a: 1 }));
  const form = http.post(`${BASE}/post`, { a: "1", b: "two words" });
  const json = http.post(`${BASE}/post`, JSON.stringify({ a: 1 }), {
    headers: { "Content-Type": "application/json" },
  });
  check(text, {
    "string body: no content type": (r) => r.json("headers.Content-Type") === undefined,
  });
  check(form, {
    "object body: a form": (r) => r.json("headers.Content-Type") === "application/x-www-form-urlencoded",
    "form fields": (r) => r.json("form.b") === "two words",
  });
  check(json, { "json parsed": (r) => r.json("json.a") === 1 });
}
