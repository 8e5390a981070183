// args: -e 1BAD=x
// A flag k6 cannot read (a variable's name starting with a digit): k6's 255 before the script loads.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { iterations: 1 };

export default function () {
  http.get(`${BASE}/validate`);
}
