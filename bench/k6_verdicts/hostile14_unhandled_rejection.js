// args: -i 3
// A promise rejected with no handler ends the iteration (k6's "Uncaught (in promise)"), the run still 0.
import http from "k6/http";
import { Counter } from "k6/metrics";

const after = new Counter("after_rejection");

export const options = { thresholds: { after_rejection: ["count==0"], iterations: ["count==3"] } };

export default async function () {
  http.get("http://127.0.0.1:18482/json");
  Promise.reject(new Error("nobody catches this"));
  await new Promise((resolve) => setTimeout(resolve, 50));
  after.add(1);
}
