// args: -u 3 -i 9
// Data split among VUs by __VU at init: each VU takes its own slice of users; the init run that reads
// options sees __VU 0, so the slice code copes with it.
import http from "k6/http";
import { check } from "k6";
import { SharedArray } from "k6/data";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const users = new SharedArray("users", () => JSON.parse(open("./data/users.json")));
const mine = __VU === 0 ? [] : users.filter((_, k) => k % 3 === __VU - 1);

export const options = {
  thresholds: { "checks{check:has own user}": ["rate==1"], http_reqs: ["count==9"] },
};

export default function () {
  const u = mine[__ITER % mine.length];
  check(u, { "has own user": (x) => x !== undefined });
  http.get(`${BASE}/get?vu=${__VU}&user=${u ? u.user : "none"}`);
}
