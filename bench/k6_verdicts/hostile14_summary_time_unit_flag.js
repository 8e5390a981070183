// args: -i 1 --summary-time-unit minutes
// A --summary-time-unit k6 does not know, on the command line (the option in the script is taken as given).
import http from "k6/http";

export default function () {
  http.get("http://127.0.0.1:18482/json");
}
