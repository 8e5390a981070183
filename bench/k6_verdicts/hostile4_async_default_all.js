// args: -u 2 -i 6
// An async default function awaiting Promise.all of asyncRequests and a plain promise, checks on each
// answer, a Trend of the batch's time measured by Date.now().
import http from "k6/http";
import { check } from "k6";
import { Trend } from "k6/metrics";

const fanOut = new Trend("fan_out_ms", true);
export const options = {
  thresholds: { fan_out_ms: ["max<5000"], checks: ["rate==1"], http_reqs: ["count==18"] },
};

export default async function () {
  const t0 = Date.now();
  const [a, b, c] = await Promise.all([
    http.asyncRequest("GET", "http://127.0.0.1:18481/get?part=a"),
    http.asyncRequest("POST", "http://127.0.0.1:18481/post", JSON.stringify({ part: "b" })),
    http.asyncRequest("GET", "http://127.0.0.1:18482/get?part=c"),
  ]);
  const label = await Promise.resolve(`vu${__VU}`);
  fanOut.add(Date.now() - t0);
  check(a, { "a args": (r) => r.json("args.part") === "a" });
  check(b, { "b json": (r) => r.json("json.part") === "b" });
  check(c, { "c ok": (r) => r.status === 200, "label": () => label.startsWith("vu") });
}
