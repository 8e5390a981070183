// args: -u 1 -i 2 -e K6_ITERATIONS=5 -e K6_VUS=3 -e MODE=a -e MODE=b
// -e gives the script variables only: K6_* names there set no option; a name given twice keeps the last.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { iterations: ["count==2"], checks: ["rate==1"] } };

export default function () {
  http.get("http://127.0.0.1:18481/get");
  check(__ENV, {
    "K6_VUS readable": (e) => e.K6_VUS === "3" && e.K6_ITERATIONS === "5",
    "last MODE": (e) => e.MODE === "b",
  });
}
