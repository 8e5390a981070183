// args: -u 1 -i 4
// Thresholds on submetrics teams write: iteration_duration by scenario, group_duration by group,
// http_reqs by status, checks by check name; one of them fails.
import http from "k6/http";
import { check, group } from "k6";

export const options = {
  thresholds: {
    "iteration_duration{scenario:default}": ["p(95)<5000"],
    "group_duration{group:::login}": ["max<5000"],
    "http_reqs{status:500}": ["count==4"],
    "http_reqs{status:200}": ["count==4"],
    "checks{check:is 200}": ["rate==1"],
    "checks{check:is 500}": ["rate==1"],
  },
};

export default function () {
  group("login", () => {
    check(http.get("http://127.0.0.1:18481/get"), { "is 200": (r) => r.status === 200 });
  });
  check(http.get("http://127.0.0.1:18481/status/500"), { "is 500": (r) => r.status === 200 });
}
