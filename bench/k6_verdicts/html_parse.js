// args: -i 2
// A page parsed with k6/html's parseHTML and read by selector, then a form posted from its values.
import http from "k6/http";
import { parseHTML } from "k6/html";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"], http_req_failed: ["rate==0"] } };

export default function () {
  const page = http.get(`${BASE}/home`);
  const doc = parseHTML(page.body);
  check(page, {
    "has a title": () => doc.find("title").text().length > 0,
    "has links": () => doc.find("a").size() > 0,
  });
  const res = http.post(`${BASE}/post`, { title: doc.find("title").text() });
  check(res, { "form sent back": (r) => r.json("form.title") === doc.find("title").text() });
}
