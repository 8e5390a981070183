// args: -u 2 -i 8
// A SharedArray over a CSV with quoted fields and a blank line, parsed by the team's own small reader
// (no papaparse offline), one row per iteration across VUs by iterationInTest.
import http from "k6/http";
import { check } from "k6";
import { SharedArray } from "k6/data";
import exec from "k6/execution";

function parseCsv(text) {
  const rows = text.split(/\r?\n/).filter((l) => l.trim() !== "");
  const cells = (line) => [...line.matchAll(/("([^"]*)"|[^,]*)(,|$)/g)].slice(0, -1).map((m) => m[2] ?? m[1]);
  const head = cells(rows[0]);
  return rows.slice(1).map((line) => Object.fromEntries(cells(line).map((v, i) => [head[i], v])));
}

const orders = new SharedArray("orders", () => parseCsv(open("./data/h12_orders.csv")));

export const options = {
  thresholds: {
    checks: ["rate==1"],
    "http_reqs{region:eu}": ["count==4"],
    "http_reqs{region:us}": ["count==2"],
  },
};

export default function () {
  const row = orders[exec.scenario.iterationInTest % orders.length];
  const res = http.get(`http://127.0.0.1:18481/get?sku=${encodeURIComponent(row.sku)}`, {
    tags: { region: row.region },
  });
  check(res, {
    "four rows": () => orders.length === 4,
    "sku echoed": (r) => r.json("args.sku") === row.sku,
    "quoted comma kept": () => orders[2].sku === "C,3",
  });
}
