// args:
// Thresholds on group_duration by group path, nested groups included, as teams budget a user journey.
import http from "k6/http";
import { group, sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
export const options = {
  vus: 2,
  iterations: 6,
  thresholds: {
    "group_duration{group:::browse}": ["avg<2000", "max<5000"],
    "group_duration{group:::checkout::pay}": ["p(95)>=100"],
    "group_duration{group:::checkout}": ["min>=100"],
    group_duration: ["max<5000"],
  },
};

export default function () {
  group("browse", () => {
    http.get(`${BASE}/get`);
  });
  group("checkout", () => {
    http.get(`${BASE}/json`);
    group("pay", () => {
      sleep(0.1);
      http.post(`${BASE}/post`, "card=4111");
    });
  });
}
