// __VU and __ITER arithmetic as teams partition data: each VU takes its own slice of a SharedArray read
// from a CSV with quoted fields, and sleeps a random think time.
import http from "k6/http";
import { check, sleep } from "k6";
import { SharedArray } from "k6/data";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

function parseCsv(text) {
  const rows = [];
  for (const line of text.trim().split("\n").slice(1)) {
    const cells = [];
    let cur = "", quoted = false;
    for (let i = 0; i < line.length; i++) {
      const c = line[i];
      if (quoted && c === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (c === '"') quoted = !quoted;
      else if (c === "," && !quoted) {
        cells.push(cur);
        cur = "";
      } else cur += c;
    }
    cells.push(cur);
    rows.push({ sku: cells[0], qty: Number(cells[1]), note: cells[2] });
  }
  return rows;
}

const orders = new SharedArray("orders", () => parseCsv(open("./data/orders.csv")));

export const options = {
  scenarios: { orders: { executor: "per-vu-iterations", vus: 3, iterations: 4 } },
  thresholds: {
    checks: ["rate==1"],
    "http_reqs{sku:B-2}": ["count==4"],
    iteration_duration: ["min>=50"],
  },
};

export default function () {
  const idx = ((__VU - 1) + __ITER * 3) % orders.length;
  const order = orders[idx];
  const res = http.post(`${BASE}/post`, JSON.stringify(order), {
    headers: { "Content-Type": "application/json" },
    tags: { sku: order.sku },
  });
  check(res, {
    "echo": (r) => r.json("json.sku") === order.sku,
    "quoted comma": () => orders[1].note === "with, comma",
    "escaped quote": () => orders[2].note === 'quote "q" inside',
    "frozen": () => {
      try {
        orders[0].qty = 99;
      } catch (_) { /* frozen */ }
      return orders[0].qty === 2;
    },
  });
  sleep(0.05 + Math.random() * 0.1);
}
