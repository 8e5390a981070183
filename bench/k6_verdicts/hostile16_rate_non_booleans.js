// args: -i 1
// A Rate given numbers, strings, null and objects: which count as true is k6's rule.
import { Rate } from "k6/metrics";

const r = new Rate("mixed");

export const options = { thresholds: { mixed: ["rate>0.4", "rate<0.9"] } };

export default function () {
  for (const v of [1, 0, 2, -1, 0.5, "", "x", "0", null, {}, [], true, false]) r.add(v);
}

export function handleSummary(data) {
  const v = data.metrics.mixed.values;
  return { stdout: `@ mixed ${v.passes} ${v.fails} ${v.rate.toFixed(4)}\n` };
}
