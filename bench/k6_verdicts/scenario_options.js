// args:
// Two scenarios with exec, startTime, gracefulStop, and their own env and tags; thresholds by those tags.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  scenarios: {
    browse: {
      executor: "per-vu-iterations",
      vus: 2,
      iterations: 3,
      exec: "browse",
      tags: { flow: "browse" },
    },
    buy: {
      executor: "shared-iterations",
      vus: 1,
      iterations: 4,
      exec: "buy",
      startTime: "1s",
      gracefulStop: "5s",
      env: { ITEM: "42" },
      tags: { flow: "buy" },
    },
  },
  thresholds: {
    "http_reqs{flow:browse}": ["count==6"],
    "http_reqs{flow:buy}": ["count==4"],
    "http_reqs{scenario:buy}": ["count==4"],
    "checks{scenario:buy}": ["rate==1"],
    "iterations{scenario:browse}": ["count==6"],
  },
};

export function browse() {
  http.get(`${BASE}/json`);
}

export function buy() {
  const res = http.get(`${BASE}/get?item=${__ENV.ITEM}`);
  check(res, { "item from scenario env": (r) => r.json("args.item") === "42" });
}
