// args: -u 1 -i 3
// A timer throws while a request sent by http.asyncRequest is in flight: the iteration ends at the throw and
// the request is cut with it, counted nowhere (neither in this iteration nor the next).
import http from "k6/http";

export const options = {
  thresholds: {
    http_reqs: ["count==0"],
    "http_reqs{name:slow}": ["count==0"],
    iteration_duration: ["max<900"],
    iterations: ["count==3"],
  },
};

export default async function () {
  setTimeout(() => {
    throw new Error("boom");
  }, 20);
  await http.asyncRequest("GET", "http://127.0.0.1:18481/delay/1", null, { tags: { name: "slow" } });
}
