// args: -u 2 -i 4
// http.batch of named requests in object form with per-request tags, batchPerHost bounding them.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  batchPerHost: 2,
  thresholds: {
    "http_reqs{page:home}": ["count==4"],
    "http_reqs{page:api}": ["count==8"],
    "checks{check:all 200}": ["rate==1"],
  },
};

export default function () {
  const res = http.batch({
    home: { method: "GET", url: `${BASE}/`, params: { tags: { page: "home" } } },
    json: { method: "GET", url: `${BASE}/json`, params: { tags: { page: "api" } } },
    user: ["GET", `${BASE}/user`, null, { tags: { page: "api" } }],
  });
  check(res, { "all 200": (r) => Object.values(r).every((x) => x.status === 200) });
}
