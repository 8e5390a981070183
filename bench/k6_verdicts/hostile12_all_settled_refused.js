// args: -u 1 -i 2
// Promise.allSettled over asyncRequests where one origin is down: without throw, every one fulfils.
import http from "k6/http";
import { check } from "k6";

export const options = {
  thresholds: {
    "http_req_failed{svc:down}": ["rate==1"],
    "http_req_failed{svc:up}": ["rate==0"],
    checks: ["rate==1"],
  },
};

export default async function () {
  const results = await Promise.allSettled([
    http.asyncRequest("GET", "http://127.0.0.1:18481/get", null, { tags: { svc: "up" } }),
    http.asyncRequest("GET", "http://127.0.0.1:1/get", null, { tags: { svc: "down" } }),
  ]);
  check(results, {
    "all fulfilled": (r) => r.every((x) => x.status === "fulfilled"),
    "down is status 0 with 1212": (r) => r[1].value.status === 0 && r[1].value.error_code === 1212,
  });
}
