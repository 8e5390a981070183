// args: -u 1 -i 2
// Pagination written as an async generator: k6's JavaScript does not parse it, so k6 refuses the script.
import http from "k6/http";
import { check } from "k6";

async function* pages(n) {
  for (let p = 1; p <= n; p++) yield await http.asyncRequest("GET", `http://127.0.0.1:18481/get?page=${p}`);
}

export default async function () {
  const seen = [];
  const it = pages(3);
  for (let r = await it.next(); !r.done; r = await it.next()) seen.push(r.value.json("args.page"));
  check(seen, { "three pages": (s) => s.length === 3 });
}
