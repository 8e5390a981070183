// args: -u 1 -i 3
// A CSV exported from a spreadsheet (a byte-order mark, CRLF line ends) split by hand as teams do; the
// first column's header carries the mark, so a team keys rows by position after reading the header.
import http from "k6/http";
import { check } from "k6";
import { SharedArray } from "k6/data";

const rows = new SharedArray("accounts", () => {
  const lines = open("./data/h3_bom.csv").split("\n").map((l) => l.replace(/\r$/, "")).filter((l) => l);
  const header = lines[0].split(",");
  return lines.slice(1).map((l) => {
    const cells = l.split(",");
    return { firstKey: header[0], email: cells[0], plan: cells[1] };
  });
});

export const options = { thresholds: { "checks{check:header has the mark}": ["rate==1"] } };

export default function () {
  const row = rows[__ITER % rows.length];
  const res = http.get(`http://127.0.0.1:18481/get?email=${encodeURIComponent(row.email)}`);
  check(res, {
    "email echoed": (r) => r.json("args.email") === row.email,
    "header has the mark": () => row.firstKey.charCodeAt(0) === 0xfeff,
    "plan has no CR": () => !row.plan.includes("\r"),
  });
}
