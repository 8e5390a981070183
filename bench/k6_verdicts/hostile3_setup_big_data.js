// args: -u 2 -i 8
// setup() returns a large catalogue (5,000 items with nested fields); each VU changes its copy of the data
// (a counter across its iterations) and teardown() checks it got setup()'s data unchanged.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"] } };

export function setup() {
  const res = http.get("http://127.0.0.1:18481/get?seed=1");
  const items = [];
  for (let i = 0; i < 5000; i++) {
    items.push({ id: i, name: `item-${i}`, attrs: { w: i % 7, tags: ["a", String(i)] } });
  }
  return { seed: res.json("args.seed"), items, seen: 0 };
}

export default function (data) {
  data.seen += 1;
  const item = data.items[(__VU * 977 + __ITER * 13) % data.items.length];
  const res = http.get(`http://127.0.0.1:18481/get?id=${item.id}`);
  check(res, {
    "item echoed": (r) => r.json("args.id") === String(item.id),
    "5000 items": () => data.items.length === 5000 && data.seed === "1",
    "seen counts this VU's iterations": () => data.seen === __ITER + 1,
  });
}

export function teardown(data) {
  check(data, {
    "teardown sees setup's data": (d) => d.seen === 0 && d.items[4999].attrs.tags[1] === "4999",
  });
}
