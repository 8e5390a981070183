// args: -u 1 -i 2
// Promise.any and Promise.race over asyncRequest: the first answer wins, the others still finish.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"], http_reqs: ["count==8"] } };

export default async function () {
  const first = await Promise.any([
    http.asyncRequest("GET", "http://127.0.0.1:1/"),
    http.asyncRequest("GET", "http://127.0.0.1:18481/get?from=any"),
  ]);
  check(first, { "any resolves": (r) => typeof r.status === "number" });
  const winner = await Promise.race([
    http.asyncRequest("GET", "http://127.0.0.1:18481/delay/1"),
    http.asyncRequest("GET", "http://127.0.0.1:18481/get?from=race"),
  ]);
  check(winner, { "fast one wins": (r) => r.json("args.from") === "race" });
}
