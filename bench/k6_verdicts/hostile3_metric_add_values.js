// args: -u 1 -i 3
// Values added to custom metrics straight from a response: a missing JSON field (undefined), a numeric
// string, a boolean into a Counter and a Rate, a number into a Rate.
import http from "k6/http";
import { check } from "k6";
import { Counter, Rate, Trend } from "k6/metrics";

const serverTime = new Trend("server_time");
const hits = new Counter("hits");
const okRate = new Rate("ok_rate");

export const options = {
  thresholds: { hits: ["count==6"], ok_rate: ["rate>0.4"], server_time: ["max<100"], checks: ["rate==1"] },
};

export default function () {
  const res = http.get("http://127.0.0.1:18481/get?t=12");
  let threw = "";
  try {
    serverTime.add(res.json("args.t"));
    serverTime.add(res.json("args.missing"));
  } catch (e) {
    threw = String(e);
  }
  console.log(`add threw: ${threw}`);
  hits.add(true);
  hits.add(1);
  okRate.add(res.status === 200);
  okRate.add(0);
  check(res, { "ran on": () => true });
}
