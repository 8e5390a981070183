// args: -u 1 -i 3
// sleep() with fractions of a second and a zero: iteration_duration covers the sleeps.
import http from "k6/http";
import { sleep } from "k6";

export const options = { thresholds: { iteration_duration: ["min>=150"], iterations: ["count==3"] } };

export default function () {
  http.get("http://127.0.0.1:18481/get");
  sleep(0.1);
  sleep(0);
  sleep(0.05);
  sleep(1 / 1000);
}
