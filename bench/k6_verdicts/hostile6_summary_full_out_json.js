// args: -u 2 -i 4 --summary-mode full --out json=/dev/null
// The full summary and a JSON output together, as a CI job asks for both, with tagged groups.
import http from "k6/http";
import { check, group } from "k6";

export const options = {
  tags: { team: "checkout" },
  thresholds: { "http_req_duration{group:::cart}": ["p(90)<5000"], "checks{team:checkout}": ["rate>0.9"] },
};

export default function () {
  group("cart", () => {
    check(http.get("http://127.0.0.1:18481/get?cart=1"), { "cart ok": (r) => r.status === 200 });
  });
  group("pay", () => {
    check(http.post("http://127.0.0.1:18482/post", "pay"), { "paid": (r) => r.status === 200 });
  });
}
