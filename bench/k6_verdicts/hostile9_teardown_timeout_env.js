// args: -u 1 -i 2
// env: K6_TEARDOWN_TIMEOUT=1s
// A teardown() slower than K6_TEARDOWN_TIMEOUT after a load whose thresholds hold.
import http from "k6/http";

export const options = { thresholds: { "http_reqs{phase:load}": ["count==2"] } };

export default function () {
  http.get("http://127.0.0.1:18481/get", { tags: { phase: "load" } });
}

export function teardown() {
  http.get("http://127.0.0.1:18481/delay/3", { tags: { phase: "teardown" } });
}
