// args: -u 2 -i 6
// deno-lint-ignore-file no-import-prefix
// jslib modules loadlab ships offline (k6-utils, papaparse), test data from a SharedArray parsed by papaparse.
import http from "k6/http";
import { SharedArray } from "k6/data";
import { check } from "k6";
import papaparse from "https://jslib.k6.io/papaparse/5.1.1/index.js";
import { randomIntBetween, randomItem, uuidv4 } from "https://jslib.k6.io/k6-utils/1.4.0/index.js";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const rows = new SharedArray(
  "queries",
  () => papaparse.parse(open("./data/queries.csv"), { header: true, skipEmptyLines: true }).data,
);

export const options = { thresholds: { checks: ["rate==1"], "http_reqs{name:search}": ["count==6"] } };

export default function () {
  const row = randomItem(rows);
  const id = uuidv4();
  const res = http.get(`${BASE}/get?q=${row.query}&id=${id}&n=${randomIntBetween(1, 5)}`, {
    tags: { name: "search" },
  });
  check(res, {
    "row has a query": () => typeof row.query === "string" && row.query.length > 0,
    "uuid echoed": (r) => r.json("args.id") === id,
    "n in range": (r) => Number(r.json("args.n")) >= 1 && Number(r.json("args.n")) <= 5,
  });
}
