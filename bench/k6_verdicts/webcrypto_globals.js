// args: -i 3
// k6 v1's globals: crypto.randomUUID and crypto.getRandomValues without an import, as request ids.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const id = crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  const res = http.get(`${BASE}/get?id=${id}&n=${bytes.length}`, {
    headers: { "X-Request-Id": id },
  });
  check(res, {
    "id echoed": (r) => r.json("args.id") === id && r.json("headers.X-Request-Id") === id,
    "uuid shape": () =>
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
        .test(id),
    "eight bytes": (r) => r.json("args.n") === "8",
  });
}
