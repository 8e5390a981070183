// args: -i 10
// Thresholds on a group's requests and on its duration.
import http from "k6/http";
import { check, group } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    "http_req_duration{group:::api}": ["p(95)<2000"],
    "group_duration{group:::api}": ["avg<5000"],
    "checks{group:::api}": ["rate==1"],
  },
};

export default function () {
  group("api", () => {
    const res = http.get(`${BASE}/json`);
    check(res, { "api is 200": (r) => r.status === 200 });
  });
  group("home", () => {
    http.get(`${BASE}/`);
  });
}
