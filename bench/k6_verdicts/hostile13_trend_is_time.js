// args: -u 1 -i 5
// A Trend made with isTime: its values are milliseconds, judged by percentiles and the median.
import { Trend } from "k6/metrics";

const wait = new Trend("wait_time", true);
const plain = new Trend("plain_values");

export const options = {
  thresholds: {
    wait_time: ["p(90)<45", "med==20", "min==0", "max==40"],
    plain_values: ["avg==2", "max==4"],
  },
};

export default function () {
  wait.add(__ITER * 10);
  plain.add(__ITER);
}
