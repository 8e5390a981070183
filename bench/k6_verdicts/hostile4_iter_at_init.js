// args: -u 2 -i 4
// __ITER read at the top level for a log line (k6 defines it only in VU code): the init code throws.
import http from "k6/http";

const runId = `run-${__VU}-${__ITER}`;
console.log(`starting ${runId}`);

export default function () {
  http.get(`http://127.0.0.1:18481/get?run=${runId}`);
}
