// args: -u 1 -i 1
// An HTTP request at the top of the script (k6 refuses requests in the init context) before any VU.
import http from "k6/http";

const config = http.get("http://127.0.0.1:18481/get").json();

export default function () {
  http.get(`http://127.0.0.1:18481/get?c=${config.url}`);
}
