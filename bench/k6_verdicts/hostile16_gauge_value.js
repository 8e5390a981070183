// args: -i 3
// Gauge thresholds on value: the last added (2), while the summary's min and max span all.
import { Gauge } from "k6/metrics";

const g = new Gauge("queue");

export const options = { thresholds: { queue: ["value==2", "value<3", "value>1"] } };

export default function () {
  g.add([7, 1, 2][__ITER]);
}

export function handleSummary(data) {
  const v = data.metrics.queue.values;
  return { stdout: `@ gauge ${v.value} ${v.min} ${v.max}\n` };
}
