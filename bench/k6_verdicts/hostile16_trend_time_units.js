// args: -i 3
// A time Trend judged with unit suffixes ("p(95)<1s"): k6 refuses them (104), as loadlab must.
import { Trend } from "k6/metrics";

const step = new Trend("step_time", true);

export const options = { thresholds: { step_time: ["p(95)<1s", "med>0.1s", "max<=900ms"] } };

export default function () {
  step.add([150, 400, 900][__ITER]);
}
