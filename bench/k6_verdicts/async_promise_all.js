// args:
// An async default function awaiting http.asyncRequest calls together, and one after the other.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
export const options = {
  iterations: 3,
  thresholds: { http_reqs: ["count==9"], "http_reqs{name:parallel}": ["count==6"] },
};

export default async function () {
  const [a, b] = await Promise.all([
    http.asyncRequest("GET", `${BASE}/get?a=1`, null, { tags: { name: "parallel" } }),
    http.asyncRequest("GET", `${BASE}/json`, null, { tags: { name: "parallel" } }),
  ]);
  check(a, { "a ok": (r) => r.status === 200 });
  check(b, { "b json": (r) => r.json() !== null });
  const c = await http.asyncRequest("POST", `${BASE}/post`, JSON.stringify({ a: a.status, b: b.status }));
  check(c, { "c echoes": (r) => r.json("json.a") === 200 });
}
