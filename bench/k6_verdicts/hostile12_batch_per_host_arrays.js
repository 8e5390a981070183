// args: -u 1 -i 2
// options.batch and batchPerHost with array-form batch entries across two origins.
import http from "k6/http";
import { check } from "k6";

export const options = {
  batch: 3,
  batchPerHost: 1,
  thresholds: {
    "http_reqs{origin:a}": ["count==6"],
    "http_reqs{origin:b}": ["count==4"],
    checks: ["rate==1"],
  },
};

export default function () {
  const a = { tags: { origin: "a" } }, b = { tags: { origin: "b" } };
  const res = http.batch([
    ["GET", "http://127.0.0.1:18481/get?i=1", null, a],
    ["GET", "http://127.0.0.1:18481/get?i=2", null, a],
    ["GET", "http://127.0.0.1:18481/get?i=3", null, a],
    ["GET", "http://127.0.0.1:18482/get?i=4", null, b],
    ["GET", "http://127.0.0.1:18482/get?i=5", null, b],
  ]);
  check(res, {
    "five answers in order": (r) => r.length === 5 && r.every((x, i) => x.json("args.i") === String(i + 1)),
  });
}
