// args: -u 1 -i 3
// An async default whose awaited request's check fails and which then throws: the iteration errors, the
// run's verdict is its thresholds'.
import http from "k6/http";
import { check } from "k6";

export const options = {
  thresholds: {
    "checks{step:first}": ["rate==1"],
    "http_reqs{step:after}": ["count==0"],
    iterations: ["count==3"],
  },
};

export default async function () {
  const res = await http.asyncRequest("GET", "http://127.0.0.1:18481/status/404", null, {
    tags: { step: "first" },
  });
  check(res, { "404 seen": (r) => r.status === 404 }, { step: "first" });
  await Promise.reject(new Error("order service down"));
  http.get("http://127.0.0.1:18481/get", { tags: { step: "after" } });
}
