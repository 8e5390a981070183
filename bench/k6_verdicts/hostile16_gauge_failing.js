// args: -i 2
// A Gauge whose last value crosses its threshold: 99.
import { Gauge } from "k6/metrics";

const g = new Gauge("lag");

export const options = { thresholds: { lag: ["value<5"] } };

export default function () {
  g.add(__ITER === 0 ? 1 : 9);
}
