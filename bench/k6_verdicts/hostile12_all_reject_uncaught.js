// args: -u 1 -i 3
// options.throw in an async default whose Promise.all rejects uncaught: each iteration ends in an error.
import http from "k6/http";
import { Counter } from "k6/metrics";

const reached = new Counter("after_all");

export const options = {
  throw: true,
  thresholds: { after_all: ["count==0"], iterations: ["count==3"], http_reqs: ["count>=3"] },
};

export default async function () {
  await Promise.all([
    http.asyncRequest("GET", "http://127.0.0.1:18481/get"),
    http.asyncRequest("GET", "http://127.0.0.1:1/down"),
  ]);
  reached.add(1);
}
