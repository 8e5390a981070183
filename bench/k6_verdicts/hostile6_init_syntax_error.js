// args: -u 1 -i 1
// A syntax error in the script (a stray brace left by a merge): k6 ends before any VU.
import http from "k6/http";

export default function () {
  http.get("http://127.0.0.1:18481/get");
}}
