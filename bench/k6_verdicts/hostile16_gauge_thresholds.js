// args: -i 3
// Gauge thresholds on min and max: k6 judges a gauge by value only, and refuses the others (104).
import { Gauge } from "k6/metrics";

const g = new Gauge("queue");

export const options = { thresholds: { queue: ["value==2", "max==7", "min==1", "value<3"] } };

export default function () {
  g.add([7, 1, 2][__ITER]);
}

export function handleSummary(data) {
  const v = data.metrics.queue.values;
  return { stdout: `@ gauge ${v.value} ${v.min} ${v.max}\n` };
}
