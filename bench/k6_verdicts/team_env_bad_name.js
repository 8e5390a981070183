// args: -e 1BAD=x -i 1
// A variable name k6 refuses (not a letter or _ first): refused before any load.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export default function () {
  http.get(`${BASE}/get`);
}
