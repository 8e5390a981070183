// args: -u 1 -i 2
// With options.throw, an asyncRequest to a closed port rejects: allSettled counts it, the others resolve.
import http from "k6/http";
import { check } from "k6";
import { Counter } from "k6/metrics";

const rejected = new Counter("rejected_requests");

export const options = {
  throw: true,
  thresholds: { rejected_requests: ["count==2"], checks: ["rate==1"], "http_reqs{ok:yes}": ["count==4"] },
};

export default async function () {
  const outcomes = await Promise.allSettled([
    http.asyncRequest("GET", "http://127.0.0.1:18481/get?n=1", null, { tags: { ok: "yes" } }),
    http.asyncRequest("GET", "http://127.0.0.1:1/closed"),
    http.asyncRequest("POST", "http://127.0.0.1:18481/post", "n=2", { tags: { ok: "yes" } }),
  ]);
  outcomes.filter((o) => o.status === "rejected").forEach(() => rejected.add(1));
  check(outcomes, {
    "middle rejected": (o) => o[1].status === "rejected" && /refused|connect/i.test(String(o[1].reason)),
    "others fulfilled": (o) => o[0].value.status === 200 && o[2].value.json("data") === "n=2",
  });
}
