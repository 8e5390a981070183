// args: -u 1 -i 2
// Query strings built with URL and URLSearchParams at the top level, as in Node: k6 has neither (its
// jslib url module gives them), so the init code throws.
import http from "k6/http";

const base = new URL("http://127.0.0.1:18481/get");
const query = new URLSearchParams({ q: "shoes", page: "1" });

export default function () {
  http.get(`${base.toString()}?${query.toString()}`);
}
