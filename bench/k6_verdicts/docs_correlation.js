// args: -u 1 -i 3
// k6's documentation's correlation: a value taken from a JSON answer, one from a form's hidden field and
// from a header, sent on in the next request.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"], http_req_failed: ["rate==0"] } };

function findBetween(content, left, right) {
  const start = content.indexOf(left);
  if (start === -1) return "";
  const end = content.indexOf(right, start + left.length);
  return end === -1 ? "" : content.substring(start + left.length, end);
}

export default function () {
  const first = http.post(`${BASE}/post`, JSON.stringify({ order: { id: 42, items: ["a", "b"] } }), {
    headers: { "Content-Type": "application/json" },
  });
  const orderId = first.json().json.order.id;
  const lastItem = first.json("json.order.items.1");
  const page = http.get(`${BASE}/html`);
  const csrf = page.html().find("input[name=csrf]").first().attr("value");
  const meta = findBetween(page.body, '<meta name="csrf" content="', '"');
  const hdr = http.get(`${BASE}/response-headers?X-Session=s-77`).headers["X-Session"];
  const next = http.post(`${BASE}/post`, {
    order: String(orderId),
    item: lastItem,
    csrf,
    meta,
    session: hdr,
  });
  check(next, {
    "json id": (r) => r.json("form.order") === "42",
    "json path item": (r) => r.json("form.item") === "b",
    "hidden field": (r) => r.json("form.csrf") === "tok-123",
    "between": (r) => r.json("form.meta") === "tok-123",
    "header": (r) => r.json("form.session") === "s-77",
  });
}
