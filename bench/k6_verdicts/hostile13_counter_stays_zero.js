// args: -u 1 -i 3
// A Counter declared and never added to, and one added zero: both hold count==0 and rate==0.
import http from "k6/http";
import { Counter } from "k6/metrics";

const never = new Counter("never_added");
const zero = new Counter("added_zero");

export const options = {
  thresholds: { never_added: ["count==0"], added_zero: ["count==0", "count<1"] },
};

export default function () {
  const res = http.get("http://127.0.0.1:18481/get");
  if (res.status !== 200) never.add(1);
  zero.add(0);
}
