// Two scenarios, each with its own exec function, env, tags and start time; thresholds per scenario tag.
import http from "k6/http";
import { check } from "k6";

export const options = {
  scenarios: {
    browse: {
      executor: "per-vu-iterations",
      vus: 2,
      iterations: 2,
      exec: "browse",
      env: { PAGE: "home" },
      tags: { flow: "browse" },
    },
    buy: {
      executor: "shared-iterations",
      vus: 1,
      iterations: 3,
      startTime: "1s",
      exec: "buy",
      env: { ITEM: "42" },
      tags: { flow: "buy" },
    },
  },
  thresholds: {
    "http_reqs{flow:browse}": ["count==4"],
    "http_reqs{flow:buy}": ["count==3"],
    "iterations{scenario:buy}": ["count==3"],
    "checks{flow:buy}": ["rate==1"],
    "checks{flow:browse}": ["rate==1"],
  },
};

export function browse() {
  const res = http.get(`http://127.0.0.1:18481/get?page=${__ENV.PAGE}`);
  check(res, { "own env": (r) => r.json("args.page") === "home" && __ENV.ITEM === undefined });
}

export function buy() {
  const res = http.post("http://127.0.0.1:18482/post", JSON.stringify({ item: __ENV.ITEM }));
  check(res, { "bought": (r) => r.json("json.item") === "42" && __ENV.PAGE === undefined });
}
