// args: --env BASE=http://127.0.0.1:18481 --env=ITEMS=3 -u 1 -i 2
// env: BASE=http://127.0.0.1:18482
// --env in its long forms over a variable of the same name set in the shell: k6 gives the flag's.
import http from "k6/http";

const BASE = __ENV.BASE;
const ITEMS = parseInt(__ENV.ITEMS, 10);
export const options = { thresholds: { http_reqs: [`count==${2 * ITEMS}`] } };

export default function () {
  for (let k = 0; k < ITEMS; k++) http.get(`${BASE}/get?item=${k}`);
}
