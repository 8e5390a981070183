// args: -i 1
// k6/secrets: a token read from the run's secret source (none given here: k6 answers with an error).
import http from "k6/http";
import secrets from "k6/secrets";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export default async function () {
  const token = await secrets.get("api-token");
  check(http.get(`${BASE}/get`, { headers: { Authorization: `Bearer ${token}` } }), {
    "sent": (r) => r.status === 200,
  });
}
