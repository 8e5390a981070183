// args: -i 2
// http.asyncRequest raced and settled: Promise.race, Promise.allSettled with a closed port, then a check;
// eight awaited together take about one's time (k6 sends them at once, one sent after another takes 3.2 s).
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"], http_reqs: ["count==24"] } };

export default async function () {
  const first = await Promise.race([
    http.asyncRequest("GET", `${BASE}/delay/0.3`),
    http.asyncRequest("GET", `${BASE}/get?fast=1`),
  ]);
  check(first, { "fast wins": (r) => r.json("args.fast") === "1" });
  const settled = await Promise.allSettled([
    http.asyncRequest("GET", `${BASE}/status/500`),
    http.asyncRequest("GET", "http://127.0.0.1:1/closed"),
  ]);
  check(settled, {
    "both fulfilled": (s) => s.every((x) => x.status === "fulfilled"),
    "closed is 0": (s) => s[1].value.status === 0,
  });
  const startMs = Date.now();
  const all = await Promise.all(
    [...Array(8).keys()].map((k) => http.asyncRequest("GET", `${BASE}/delay/0.4?k=${k}`)),
  );
  check(Date.now() - startMs, { "eight at once": (ms) => ms < 2000 && all.every((r) => r.status === 200) });
}
