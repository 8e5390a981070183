// args: -i 4
// A custom Rate fed true, false, 0 and a string: its passes, fails and rate in handleSummary and thresholds.
import { Rate } from "k6/metrics";

const good = new Rate("good");

export const options = { thresholds: { good: ["rate==0.5"], "good{kind:odd}": ["rate==0"] } };

export default function () {
  good.add(__ITER % 2 === 0);
  good.add(__ITER % 2 === 0 ? "yes" : 0, { kind: __ITER % 2 === 0 ? "even" : "odd" });
}

export function handleSummary(data) {
  const v = data.metrics.good.values;
  return {
    stdout:
      `@ good ${v.passes} ${v.fails} ${v.rate} ${data.metrics.good.type} ${data.metrics.good.contains}\n`,
  };
}
