// args: -u 1 -i 2
// A hand-rolled deadline: Promise.race of an asyncRequest to a slow path and a k6/timers setTimeout.
import http from "k6/http";
import { check } from "k6";
import { setTimeout } from "k6/timers";

export const options = { thresholds: { checks: ["rate==1"], http_reqs: ["count==4"] } };

const deadline = (ms) => new Promise((resolve) => setTimeout(() => resolve("deadline"), ms));

export default async function () {
  const winner = await Promise.race([
    http.asyncRequest("GET", "http://127.0.0.1:18481/delay/1.5"),
    deadline(200),
  ]);
  check(winner, { "deadline wins": (w) => w === "deadline" });
  const fast = await Promise.race([http.asyncRequest("GET", "http://127.0.0.1:18481/get"), deadline(3000)]);
  check(fast, { "fast request wins": (r) => typeof r === "object" && r.status === 200 });
}
