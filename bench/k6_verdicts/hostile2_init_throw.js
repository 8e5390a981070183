// args: -u 2 -i 2
// An init-context error thrown by the script itself when a required variable is unset, the way teams
// guard their environment: exit 107 before any request.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
if (!__ENV.API_KEY) {
  throw new Error("API_KEY must be set: k6 run -e API_KEY=... script.js");
}

export default function () {
  http.get(`${BASE}/get`, { headers: { "X-Api-Key": __ENV.API_KEY } });
}
