// args: -e VUS=2 -e ITERS=6 -e ITERS=4
// Options read from __ENV with fallbacks: a variable given, one given twice (the last wins), one absent.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
export const options = {
  vus: parseInt(__ENV.VUS || "1"),
  iterations: Number(__ENV.ITERS ?? 10),
  thresholds: { iterations: ["count==4"], "http_reqs{name:env}": ["count==4"] },
};

export default function () {
  const res = http.get(`${BASE}/get?env=${__ENV.STAGE ?? "none"}`, { tags: { name: "env" } });
  check(res, { "no stage given": (r) => r.json("args.env") === "none" });
}
