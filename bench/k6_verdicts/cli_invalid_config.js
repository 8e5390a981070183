// args: -i 0
// A well-formed flag value that k6's check of its config refuses (-i 0 over the duration): 104, nothing sent.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { vus: 1, duration: "2s" };

export default function () {
  http.get(`${BASE}/validate`);
}
