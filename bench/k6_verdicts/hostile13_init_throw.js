// args: -u 1 -i 1
// A throw in init code (a required variable missing): k6 exits 107 before any request.
import http from "k6/http";

const token = __ENV.API_TOKEN;
if (!token) throw new Error("API_TOKEN is required");

export default function () {
  http.get("http://127.0.0.1:18481/get", { headers: { Authorization: `Bearer ${token}` } });
}
