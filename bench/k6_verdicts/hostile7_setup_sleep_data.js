// args: -u 2 -i 6
// setup() that sleeps, logs in and returns nested data; VU code and teardown() read it.
import http from "k6/http";
import { check, sleep } from "k6";
import { Counter } from "k6/metrics";

const teardownOk = new Counter("teardown_ok");

export const options = {
  thresholds: { http_reqs: ["count==7"], checks: ["rate==1"], teardown_ok: ["count==1"] },
};

export function setup() {
  sleep(1);
  const token = http.post("http://127.0.0.1:18482/post", JSON.stringify({ t: "abc" })).json("json.t");
  return { token, items: [{ id: 1 }, { id: 2 }, { id: 3 }], at: new Date(0) };
}

export default function (data) {
  const item = data.items[__ITER % data.items.length];
  const res = http.get(`http://127.0.0.1:18481/get?id=${item.id}&t=${data.token}`);
  check(res, {
    "token": (r) => r.json("args.t") === "abc",
    "date as string": () => typeof data.at === "string",
  });
}

export function teardown(data) {
  if (data.items.length === 3 && data.token === "abc") teardownOk.add(1);
}
