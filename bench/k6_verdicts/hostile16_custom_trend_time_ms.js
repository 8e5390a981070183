// args: -i 4
// A custom Trend with isTime, judged in ms: its median between samples, contains time; a plain Trend beside.
import { Trend } from "k6/metrics";

const waits = new Trend("waits", true);
const plain = new Trend("plain");

export const options = {
  summaryTrendStats: ["avg", "med", "p(50)", "count"],
  thresholds: { waits: ["med==25", "p(50)<1000", "avg<100"], plain: ["max==3", "med==1.5"] },
};

export default function () {
  waits.add([10, 20, 30, 40][__ITER]);
  plain.add(__ITER);
}

export function handleSummary(data) {
  const w = data.metrics.waits, p = data.metrics.plain;
  return {
    stdout: `@ contains ${w.contains} ${p.contains} ${w.values.med} ${p.values.med} ${w.values.count}\n`,
  };
}
