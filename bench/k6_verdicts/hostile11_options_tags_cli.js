// args: -u 1 -i 3 --tag env=ci --tag build=42
// options.tags and --tag together: a key in both is the command line's, the others are kept.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  tags: { env: "script", team: "checkout" },
  thresholds: {
    "http_reqs{env:ci}": ["count==3"],
    "http_reqs{env:script}": ["count==0"],
    "http_reqs{team:checkout}": ["count==3"],
    "http_reqs{build:42,team:checkout}": ["count==3"],
    "iterations{env:ci}": ["count==3"],
  },
};

export default function () {
  http.get(`${BASE}/get`);
}
