// args: -i 3
// k6's localhost.js: every request goes to a port nothing listens on, and no threshold. k6 exits 0.
import http from "k6/http";

export default function () {
  http.get("http://127.0.0.1:18489/");
}
