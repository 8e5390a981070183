// args: -u 2 -d 3s
// Groups with random think times between them, as a user journey; thresholds on group_duration per group.
import http from "k6/http";
import { check, group, sleep } from "k6";

export const options = {
  thresholds: {
    "group_duration{group:::home}": ["max<5000"],
    "group_duration{group:::checkout}": ["max<5000"],
    "http_req_duration{group:::checkout}": ["p(95)<3000"],
    checks: ["rate==1"],
  },
};

function think(min, max) {
  sleep(min + Math.random() * (max - min));
}

export default function () {
  group("home", () => {
    check(http.get("http://127.0.0.1:18482/"), { "home 200": (r) => r.status === 200 });
  });
  think(0.1, 0.3);
  group("checkout", () => {
    const res = http.post("http://127.0.0.1:18481/post", JSON.stringify({ cart: [1, 2] }));
    check(res, { "cart echoed": (r) => r.json("json.cart.1") === 2 });
  });
  think(0.1, 0.3);
}
