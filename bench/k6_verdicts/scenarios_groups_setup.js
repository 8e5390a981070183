// args: --tag team=checkout
// Two scenarios (per-vu-iterations and shared-iterations) of their own exec functions, both fed setup()'s
// token, with thresholds on group and scenario submetrics; --tag tags setup()'s request too (8 in all).
import http from "k6/http";
import { check, group } from "k6";
import { SharedArray } from "k6/data";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const users = new SharedArray("users", () => JSON.parse(open("./data/users.json")));

export const options = {
  scenarios: {
    browse: {
      executor: "per-vu-iterations",
      vus: 2,
      iterations: 2,
      exec: "browse",
      tags: { flow: "browse" },
    },
    buy: { executor: "shared-iterations", vus: 1, iterations: 3, exec: "buy", startTime: "200ms" },
  },
  thresholds: {
    "http_reqs{scenario:browse}": ["count==4"],
    "http_reqs{group:::cart::pay}": ["count==3"],
    "group_duration{group:::cart}": ["max<10000"],
    "http_req_duration{flow:browse}": ["med<5000"],
    "checks{scenario:buy}": ["rate==1"],
    "http_reqs{team:checkout}": ["count==8"],
  },
};

export function setup() {
  const res = http.post(`${BASE}/post`, JSON.stringify({ token: "t-42" }), {
    headers: { "Content-Type": "application/json" },
  });
  return { token: res.json("json.token") };
}

export function browse(data) {
  const u = users[__VU % users.length];
  http.get(`${BASE}/get?user=${encodeURIComponent(JSON.stringify(u))}`, {
    headers: { Authorization: `Bearer ${data.token}` },
  });
}

export function buy(data) {
  group("cart", () => {
    group("pay", () => {
      const res = http.get(`${BASE}/get`, { headers: { Authorization: `Bearer ${data.token}` } });
      check(res, { "token sent": (r) => r.json("headers.Authorization") === "Bearer t-42" });
    });
  });
}
