// args:
// Scenarios naming exported functions with their own env and tags; thresholds select each scenario's tag.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  scenarios: {
    shoppers: {
      executor: "shared-iterations",
      vus: 2,
      iterations: 6,
      exec: "shop",
      env: { CART: "3" },
      tags: { flow: "shop" },
    },
    readers: {
      executor: "per-vu-iterations",
      vus: 2,
      iterations: 2,
      exec: "read",
      env: { PAGE: "news" },
      tags: { flow: "read" },
    },
  },
  thresholds: {
    "http_reqs{flow:shop}": ["count==6"],
    "http_reqs{flow:read}": ["count==4"],
    "checks{flow:shop}": ["rate==1"],
    "checks{flow:read}": ["rate==1"],
  },
};

export function shop() {
  const res = http.get(`${BASE}/get?cart=${__ENV.CART}`);
  check(res, { "cart from scenario env": (r) => r.json("args.cart") === "3" });
}

export function read() {
  const res = http.get(`${BASE}/get?page=${__ENV.PAGE}&cart=${__ENV.CART}`);
  check(res, {
    "page from scenario env": (r) => r.json("args.page") === "news",
    "other scenario's env unset": (r) => r.json("args.cart") === "undefined",
  });
}
