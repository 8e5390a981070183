// args: -i 1
// batch and batchPerHost: four slow requests to one host go one at a time, so the batch takes four delays.
import http from "k6/http";
import { Trend } from "k6/metrics";

const batchMs = new Trend("batch_ms", true);

export const options = {
  batch: 2,
  batchPerHost: 1,
  thresholds: { batch_ms: ["min>=1100"], "http_reqs{status:200}": ["count==6"] },
};

export default function () {
  const start = Date.now();
  http.batch(Array.from({ length: 4 }, () => ["GET", "http://127.0.0.1:18481/delay/0.3"]));
  batchMs.add(Date.now() - start);
  http.batch(["http://127.0.0.1:18481/get", "http://127.0.0.1:18482/json"]);
}
