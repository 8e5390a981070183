// args: -u 1 -i 2
// Promise.race between a refused call under throw (rejects first) and a slow one: the race rejects.
import http from "k6/http";
import { check } from "k6";

export const options = { throw: true, thresholds: { checks: ["rate==1"] } };

export default async function () {
  let outcome = "resolved";
  try {
    await Promise.race([
      http.asyncRequest("GET", "http://127.0.0.1:1/down"),
      http.asyncRequest("GET", "http://127.0.0.1:18481/delay/0.5"),
    ]);
  } catch {
    outcome = "rejected";
  }
  check(outcome, { "race rejected": (o) => o === "rejected" });
}
