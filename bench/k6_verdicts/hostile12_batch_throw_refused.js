// args: -u 1 -i 2
// options.throw with a batch holding a refused entry: the batch throws, the team catches and counts it.
import http from "k6/http";
import { check } from "k6";
import { Counter } from "k6/metrics";

const batchErrors = new Counter("batch_errors");

export const options = { throw: true, thresholds: { batch_errors: ["count==2"], checks: ["rate==1"] } };

export default function () {
  let thrown = "";
  try {
    http.batch(["http://127.0.0.1:18481/get", "http://127.0.0.1:1/down"]);
  } catch (e) {
    thrown = String(e);
    batchErrors.add(1);
  }
  check(thrown, { "batch threw the refusal": (t) => t.includes("refused") });
}
