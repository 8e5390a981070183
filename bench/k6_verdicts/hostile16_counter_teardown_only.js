// args: -i 2
// A counter only teardown() adds to, with a threshold that fails on it.
import http from "k6/http";
import { Counter } from "k6/metrics";

const cleaned = new Counter("cleaned");

export const options = { thresholds: { cleaned: ["count<3"] } };

export default function () {
  http.get("http://127.0.0.1:18481/get");
}

export function teardown() {
  cleaned.add(4);
}
