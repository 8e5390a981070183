// args: -u 1 -i 3
// A timer throws while the iteration awaits an asyncRequest: the code after the await never runs.
import http from "k6/http";
import { Counter } from "k6/metrics";

const after = new Counter("after_throw");

export const options = {
  thresholds: { after_throw: ["count==0"], "http_reqs{name:after}": ["count==0"], iterations: ["count==3"] },
};

export default async function () {
  setTimeout(() => {
    throw new Error("boom");
  }, 20);
  await http.asyncRequest("GET", "http://127.0.0.1:18481/delay/0.3");
  after.add(1);
  http.get("http://127.0.0.1:18482/get", { tags: { name: "after" } });
}
