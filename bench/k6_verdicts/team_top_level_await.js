// args: -i 2
// Top-level await in the init code.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const path = await Promise.resolve("/json");

export const options = { thresholds: { http_reqs: ["count==2"] } };

export default async function () {
  await http.asyncRequest("GET", `${BASE}${path}`);
}
