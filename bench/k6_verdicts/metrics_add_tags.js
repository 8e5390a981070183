// args: -u 2 -i 8
// k6/metrics with tags on add(): thresholds on a Counter, Trend, Rate and Gauge by the tags each sample has.
import http from "k6/http";
import exec from "k6/execution";
import { Counter, Gauge, Rate, Trend } from "k6/metrics";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const orders = new Counter("orders");
const basket = new Trend("basket_value");
const paid = new Rate("paid");
const stock = new Gauge("stock_left");

export const options = {
  thresholds: {
    "orders{kind:book}": ["count==4"],
    "orders{kind:pen}": ["count==4"],
    "orders": ["count==8"],
    "basket_value{kind:book}": ["avg>=20", "max<=30"],
    "basket_value{kind:pen}": ["max<5"],
    "paid{kind:pen}": ["rate==0"],
    "paid": ["rate==0.5"],
    "stock_left": ["value>=0"],
    "orders{kind:none}": ["count==0"],
  },
};

export default function () {
  const kind = exec.scenario.iterationInTest % 2 === 0 ? "book" : "pen";
  http.get(`${BASE}/get?kind=${kind}`);
  orders.add(1, { kind });
  basket.add(kind === "book" ? 20 + (exec.scenario.iterationInTest % 10) : 2, { kind });
  paid.add(kind === "book", { kind });
  stock.add(100 - exec.scenario.iterationInTest, { kind });
}
