// args: -u 2 -i 8
// Random picks without jslib: a random item of a list, a random string, random think times, tagged by pick.
import http from "k6/http";
import { check, sleep } from "k6";

const PRODUCTS = ["pizza", "pasta", "salad"];
export const options = { thresholds: { http_reqs: ["count==8"], checks: ["rate==1"] } };

function randomItem(arr) {
  return arr[Math.floor(Math.random() * arr.length)];
}
function randomString(n) {
  const abc = "abcdefghijklmnopqrstuvwxyz";
  let s = "";
  for (let i = 0; i < n; i++) s += abc[Math.floor(Math.random() * abc.length)];
  return s;
}

export default function () {
  const p = randomItem(PRODUCTS);
  const note = randomString(12);
  const res = http.get(`http://127.0.0.1:18481/get?p=${p}&note=${note}`, { tags: { product: p } });
  check(res, { "echo": (r) => r.json("args.p") === p && r.json("args.note").length === 12 });
  sleep(Math.random() * 0.2);
}
