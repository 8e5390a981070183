// args: -i 1
// A Trend given booleans and numeric strings: k6 converts them to numbers (true 1, "5" 5, false 0).
import { Trend } from "k6/metrics";

const t = new Trend("odd");

export const options = { thresholds: { odd: ["max==5", "min==0", "avg==2"] } };

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
