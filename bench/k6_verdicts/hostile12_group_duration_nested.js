// args: -u 1 -i 3
// Thresholds on nested groups' durations, keyed by k6's group path (`::outer::inner`).
import http from "k6/http";
import { group, sleep } from "k6";

export const options = {
  thresholds: {
    "group_duration{group:::checkout}": ["min>=200"],
    "group_duration{group:::checkout::pay}": ["min>=100", "max<5000"],
    "http_reqs{group:::checkout::pay}": ["count==3"],
    "http_reqs{group:::checkout}": ["count==3"],
    "group_duration{group:::missing}": ["max<1"],
  },
};

export default function () {
  group("checkout", () => {
    http.get("http://127.0.0.1:18481/get?step=cart");
    sleep(0.1);
    group("pay", () => {
      http.post("http://127.0.0.1:18481/post", "card=4111");
      sleep(0.1);
    });
  });
}
