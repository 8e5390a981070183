// args: -i 3
// group_duration by group path, nested and at the top, beside one on a group no iteration enters.
import http from "k6/http";
import { group } from "k6";

export const options = {
  thresholds: {
    "group_duration{group:::login}": ["max<5000", "min>=100"],
    "group_duration{group:::login::token}": ["p(95)>=100"],
    "group_duration{group:::never}": ["max<1"],
    group_duration: ["p(50)>=100"],
    "http_reqs{group:::login::token}": ["count==3"],
  },
};

export default function () {
  group("login", () => {
    group("token", () => {
      http.get("http://127.0.0.1:18481/delay/0.1");
    });
  });
}
