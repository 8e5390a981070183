// args: -u 1 -i 4
// A Gauge's thresholds: judged on its last value only, one of them failing.
import { Gauge } from "k6/metrics";

const queue = new Gauge("queue_depth");
const levels = [5, 2, 9, 7];

export const options = {
  thresholds: { queue_depth: ["value==7", "value>5", "value<5"] },
};

export default function () {
  queue.add(levels[__ITER]);
}
