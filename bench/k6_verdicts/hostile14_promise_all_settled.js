// args: -i 2
// An async default: Promise.all of three asyncRequests, then Promise.allSettled with one to a closed port.
import http from "k6/http";
import { check } from "k6";

export const options = {
  thresholds: {
    "http_reqs{name:all}": ["count==6"],
    "http_reqs{name:settled}": ["count==4"],
    checks: ["rate==1"],
  },
};

export default async function () {
  const params = { tags: { name: "all" } };
  const all = await Promise.all([
    http.asyncRequest("GET", "http://127.0.0.1:18481/get", null, params),
    http.asyncRequest("POST", "http://127.0.0.1:18481/post", "x", params),
    http.asyncRequest("GET", "http://127.0.0.1:18482/json", null, params),
  ]);
  check(all, { "three answered": (rs) => rs.every((r) => r.status === 200) });
  const settled = await Promise.allSettled([
    http.asyncRequest("GET", "http://127.0.0.1:18481/get", null, { tags: { name: "settled" } }),
    http.asyncRequest("GET", "http://127.0.0.1:1/nothing", null, { tags: { name: "settled" } }),
  ]);
  check(settled, {
    "both fulfilled": (s) => s.every((x) => x.status === "fulfilled"),
    "closed port is status 0": (s) => s[1].value.status === 0,
  });
}
