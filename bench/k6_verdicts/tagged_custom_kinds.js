// args: -i 4
// A Counter, Rate and Gauge each added with tags; thresholds on each metric by its tags.
import http from "k6/http";
import { Counter, Gauge, Rate } from "k6/metrics";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const orders = new Counter("orders");
const inStock = new Rate("in_stock");
const queue = new Gauge("queue_depth");

export const options = {
  thresholds: {
    "orders{kind:book}": ["count==4"],
    "orders{kind:pen}": ["count==8"],
    orders: ["count==12"],
    "in_stock{kind:book}": ["rate==1"],
    "in_stock{kind:pen}": ["rate==0"],
    "queue_depth{shelf:a}": ["value==3"],
    queue_depth: ["value>=3"],
  },
};

export default function () {
  http.get(`${BASE}/json`);
  orders.add(1, { kind: "book" });
  orders.add(2, { kind: "pen" });
  inStock.add(true, { kind: "book" });
  inStock.add(false, { kind: "pen" });
  queue.add(3, { shelf: "a" });
  queue.add(__ITER + 3, { shelf: "b" });
}
