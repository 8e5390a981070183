// args: -i 2 --summary-mode full
// --summary-mode full with two groups and a failing threshold: 99, handleSummary not defined.
import http from "k6/http";
import { group } from "k6";

export const options = { thresholds: { "http_reqs{group:::b}": ["count==0"] } };

export default function () {
  group("a", () => http.get("http://127.0.0.1:18481/get"));
  group("b", () => http.get("http://127.0.0.1:18482/json"));
}
