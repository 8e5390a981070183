// args: -i 3
// iteration_duration of three iterations (0.1, 0.3, 0.9 s) in the summary: p(75) between the last two.
import { sleep } from "k6";

export const options = { summaryTrendStats: ["med", "p(75)"] };

export default function () {
  sleep([0.1, 0.3, 0.9][__ITER]);
}

export function handleSummary(data) {
  const v = data.metrics.iteration_duration.values;
  return { stdout: `@ p75 ${v["p(75)"] > 450 && v["p(75)"] < 800} med ${v.med > 250 && v.med < 450}\n` };
}
