// args: -u 2 -i 6
// A SharedArray built from open() of a CSV split by hand (quoted commas kept), rows picked by the test's
// iteration number.
import http from "k6/http";
import { check } from "k6";
import { SharedArray } from "k6/data";
import exec from "k6/execution";

const rows = new SharedArray("orders", () => {
  const lines = open("./data/orders.csv").split(/\r?\n/).filter((l) => l.trim() !== "");
  const head = lines[0].split(",");
  return lines.slice(1).map((line) => {
    const cells = line.match(/("[^"]*"|[^,]+)/g).map((c) => c.replace(/^"|"$/g, ""));
    return Object.fromEntries(head.map((h, i) => [h, cells[i]]));
  });
});

export const options = { thresholds: { checks: ["rate==1"], http_reqs: ["count==6"] } };

export default function () {
  const row = rows[exec.scenario.iterationInTest % rows.length];
  const res = http.post("http://127.0.0.1:18481/post", JSON.stringify(row));
  check(res, {
    "three rows": () => rows.length === 3,
    "sku echoed": (r) => r.json("json.sku") === row.sku,
    "comma kept": () => rows[1].note === "with, comma",
    "frozen": () => Object.isFrozen(rows[0]) || rows[0].sku === "A-1",
  });
}
