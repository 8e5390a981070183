// A scenario per user journey, each with its own exec, env, tags, startTime and gracefulStop; thresholds
// on each scenario's tag and on one journey's own tag.
import http from "k6/http";
import { check, sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  scenarios: {
    browse: {
      executor: "per-vu-iterations",
      vus: 2,
      iterations: 3,
      exec: "browse",
      env: { PAGE: "home" },
      tags: { journey: "browse" },
    },
    buy: {
      executor: "shared-iterations",
      vus: 1,
      iterations: 2,
      exec: "buy",
      startTime: "1s",
      gracefulStop: "2s",
      env: { ITEM: "42" },
      tags: { journey: "buy" },
    },
  },
  thresholds: {
    "http_reqs{scenario:browse}": ["count==6"],
    "http_reqs{journey:buy}": ["count==2"],
    "checks{scenario:buy}": ["rate==1"],
    "iterations{scenario:buy}": ["count==2"],
  },
};

export function browse() {
  const res = http.get(`${BASE}/get?page=${__ENV.PAGE}`);
  check(res, { "page from env": (r) => r.json("args.page") === "home", "no item": () => !__ENV.ITEM });
  sleep(0.1);
}

export function buy() {
  const res = http.post(`${BASE}/post`, { item: __ENV.ITEM });
  check(res, { "item from env": (r) => r.json("form.item") === "42", "no page": () => !__ENV.PAGE });
}
