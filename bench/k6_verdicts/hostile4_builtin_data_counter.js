// args: -u 1 -i 3
// A Counter named data_received for bytes a script counts itself: k6's is a counter of data, so k6
// refuses the script's (of default values) before the load.
import http from "k6/http";
import { Counter } from "k6/metrics";

const received = new Counter("data_received");
export const options = { thresholds: { data_received: ["count>1000"] } };

export default function () {
  const res = http.get("http://127.0.0.1:18481/get");
  received.add(res.body.length);
}
