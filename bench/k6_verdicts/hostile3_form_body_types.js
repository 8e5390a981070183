// args: -i 2
// Object bodies as teams pass them: numbers, booleans, null, a list, a nested object, spaces and & in a
// value; header values given as numbers; a GET with an object body.
import http from "k6/http";
import { check } from "k6";

export default function () {
  const res = http.post("http://127.0.0.1:18481/post", {
    page: 2,
    active: true,
    note: "a b&c=d",
    empty: "",
  }, { headers: { "X-Retry": 3, "X-Debug": false } });
  const f = res.json("form") || {};
  check(res, {
    "number sent as text": () => f.page === "2",
    "boolean sent as text": () => f.active === "true",
    "escaped value": () => f.note === "a b&c=d",
    "empty kept": () => f.empty === "",
    "form content type": (r) => r.json("headers.Content-Type") === "application/x-www-form-urlencoded",
    "number header": (r) => r.json("headers.X-Retry") === "3",
    "boolean header": (r) => r.json("headers.X-Debug") === "false",
  });
  const list = http.post("http://127.0.0.1:18481/post", { ids: [1, 2], meta: { a: 1 }, gone: null });
  console.log(`list form: ${JSON.stringify(list.json("form"))} data: ${list.json("data")}`);
  check(list, { "list form answered": (r) => r.status === 200 });
  const get = http.request("GET", "http://127.0.0.1:18481/get", { q: "x" });
  console.log(`get args: ${JSON.stringify(get.json("args"))}`);
  check(get, { "get body not in query": (r) => r.json("args.q") === undefined });
}
