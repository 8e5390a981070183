// args: -i 1
// A Trend given booleans and numeric strings, judged by count: k6 refuses count on a trend (104).
import { Trend } from "k6/metrics";

const t = new Trend("odd");

export const options = { thresholds: { odd: ["max==5", "min==0", "count==4"] } };

export default function () {
  t.add(true);
  t.add("5");
  t.add(false);
  t.add(2);
}

export function handleSummary(data) {
  const v = data.metrics.odd.values;
  return { stdout: `@ odd ${v.min} ${v.max} ${v.avg}\n` };
}
