// args: -u 1 -i 1
// A syntax error in the script: k6 exits 107 before any request.
import http from "k6/http";

export default function () {
  const res = http.get("http://127.0.0.1:18481/get";
}
