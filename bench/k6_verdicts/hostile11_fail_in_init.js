// args: -u 1 -i 2
// The init code refuses to run without its required variable: fail() there is k6's exit 107.
import http from "k6/http";
import { fail } from "k6";

const TOKEN = __ENV.H11_API_TOKEN;
if (!TOKEN) {
  fail("H11_API_TOKEN is required: run with -e H11_API_TOKEN=...");
}

export default function () {
  http.get("http://127.0.0.1:18481/get", { headers: { Authorization: `Bearer ${TOKEN}` } });
}
