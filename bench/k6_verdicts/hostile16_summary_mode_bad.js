// args: -i 1 --summary-mode brief
// An unknown --summary-mode: k6 refuses the flag.
import http from "k6/http";

export default function () {
  http.get("http://127.0.0.1:18481/get");
}
