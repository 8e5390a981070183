// args: -u 2 -i 4
// k6's documentation's test lifecycle: init code run per VU, setup's data a copy per VU (a change in one
// iteration is not seen by another VU), teardown given setup's data as it returned it.
import http from "k6/http";
import { check } from "k6";
import { Counter } from "k6/metrics";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const mutated = new Counter("mutated_seen");
let initCount = 0;
initCount++;

export const options = {
  thresholds: {
    checks: ["rate==1"],
    mutated_seen: ["count==2"],
    "http_reqs{name:teardown}": ["count==1"],
    "http_reqs{name:setup}": ["count==1"],
  },
};

export function setup() {
  const res = http.get(`${BASE}/get?token=abc`, { tags: { name: "setup" } });
  return { token: res.json("args.token"), list: [1, 2], n: 0 };
}

export default function (data) {
  check(data, {
    "token": (d) => d.token === "abc",
    "init once per vu": () => initCount === 1,
  });
  if (data.n > 0) mutated.add(1);
  data.n++;
  data.list.push(3);
}

export function teardown(data) {
  check(data, { "teardown sees setup's data": (d) => d.n === 0 && d.list.length === 2 });
  http.get(`${BASE}/get?bye=${data.token}`, { tags: { name: "teardown" } });
}
