// args: -u 1 -i 2
// k6/experimental/csv reading a data file opened with k6/experimental/fs, its rows as objects.
import http from "k6/http";
import { check } from "k6";
import { open } from "k6/experimental/fs";
import csv from "k6/experimental/csv";

const file = await open("./data/orders.csv");
const rows = await csv.parse(file, { asObjects: true });

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const row = rows[__ITER % rows.length];
  const res = http.get(`http://127.0.0.1:18481/get?row=${__ITER}`);
  check(res, { "row read": () => rows.length > 0 && typeof row === "object" && row !== null });
}
