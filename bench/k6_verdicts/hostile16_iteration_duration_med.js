// args: -i 2
// iteration_duration of two iterations (0.1 s and 0.7 s): its median between them, judged and printed.
import { sleep } from "k6";

export const options = {
  thresholds: { iteration_duration: ["med>250", "med<600", "p(95)>600", "min<300"] },
};

export default function () {
  sleep(__ITER === 0 ? 0.1 : 0.7);
}

export function handleSummary(data) {
  const v = data.metrics.iteration_duration.values;
  return { stdout: `@ med ${Math.round(v.med / 100)}\n` };
}
