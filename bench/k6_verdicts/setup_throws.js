// args: -i 2
// setup() throws when the service it prepares answers badly: k6 stops before any iteration.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export function setup() {
  const res = http.get(`${BASE}/validate?id=bad`);
  if (res.status !== 200) throw new Error(`setup: validate answered ${res.status}`);
  return { ok: true };
}

export default function () {
  http.get(`${BASE}/json`);
}
