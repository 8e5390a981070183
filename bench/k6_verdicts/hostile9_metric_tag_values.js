// args: -u 1 -i 2
// Custom metric tags of numbers and booleans become text; an object as a tag value throws at add().
import http from "k6/http";
import { Counter } from "k6/metrics";
import { check } from "k6";

const orders = new Counter("orders_tagged");
const thrown = new Counter("tag_errors");

export const options = {
  thresholds: {
    "orders_tagged{code:200}": ["count==2"],
    "orders_tagged{paid:true}": ["count==2"],
    "http_reqs{attempt:1}": ["count==2"],
    tag_errors: ["count==2"],
    checks: ["rate==1"],
  },
};

export default function () {
  const res = http.get("http://127.0.0.1:18481/get", { tags: { attempt: 1 } });
  orders.add(1, { code: res.status, paid: true });
  let why = "";
  try {
    orders.add(1, { detail: { nested: 1 } });
  } catch (e) {
    thrown.add(1);
    why = String(e);
  }
  check(why, { "says the tag": (w) => w.includes("invalid value for metric tag 'detail'") });
}
