// args: -u 2 -i 6
// A promise rejected with no handler after the iteration's first await, two VUs at once: only the
// iteration that dropped it ends.
import http from "k6/http";
import { Counter } from "k6/metrics";
import exec from "k6/execution";

const after = new Counter("after_rejection");

export const options = { thresholds: { after_rejection: ["count==3"], iterations: ["count==6"] } };

export default async function () {
  await http.asyncRequest("GET", "http://127.0.0.1:18482/json");
  if (exec.scenario.iterationInTest % 2 === 0) Promise.reject(new Error("dropped"));
  await new Promise((resolve) => setTimeout(resolve, 50));
  await http.asyncRequest("GET", "http://127.0.0.1:18481/get");
  after.add(1);
}
