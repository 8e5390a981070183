// args: -u 1 -i 2
// for await over a list of asyncRequest promises, and an async helper awaited inside a loop.
import http from "k6/http";
import { check, sleep } from "k6";

export const options = { thresholds: { checks: ["rate==1"], http_reqs: ["count==10"] } };

async function fetchItem(id) {
  const r = await http.asyncRequest("GET", `http://127.0.0.1:18481/get?id=${id}`);
  return r.json("args.id");
}

export default async function () {
  const pending = [1, 2, 3].map((id) => http.asyncRequest("GET", `http://127.0.0.1:18482/?id=${id}`));
  let answered = 0;
  for await (const r of pending) if (r.status === 200) answered++;
  check(answered, { "all three": (n) => n === 3 });
  const ids = [];
  for (const id of [7, 8]) ids.push(await fetchItem(id));
  check(ids, { "ids in order": (v) => v.join() === "7,8" });
  sleep(0.1);
}
