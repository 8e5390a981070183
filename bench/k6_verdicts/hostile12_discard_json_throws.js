// args: -u 1 -i 2
// discardResponseBodies with a response read as JSON anyway: the read throws and the iteration ends there.
import http from "k6/http";
import { check } from "k6";
import { Counter } from "k6/metrics";

const after = new Counter("after_json");

export const options = {
  discardResponseBodies: true,
  thresholds: { after_json: ["count==0"], checks: ["rate==1"] },
};

export default function () {
  const res = http.get("http://127.0.0.1:18481/get");
  check(res, { "status still there": (r) => r.status === 200 });
  res.json("url");
  after.add(1);
}
