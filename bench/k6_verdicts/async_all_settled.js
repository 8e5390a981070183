// args: -u 2 -i 4
// An async default awaiting http.asyncRequest in Promise.all and Promise.allSettled, then a chained call.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const OTHER = __ENV.OTHER_URL || "http://127.0.0.1:18482";

export const options = {
  thresholds: { http_reqs: ["count==16"], checks: ["rate==1"] },
};

export default async function () {
  const [a, b] = await Promise.all([
    http.asyncRequest("GET", `${BASE}/json`),
    http.asyncRequest("GET", `${OTHER}/get?side=b`),
  ]);
  check(a, { "a ok": (r) => r.status === 200 });
  check(b, { "b echoed": (r) => r.json("args.side") === "b" });
  const settled = await Promise.allSettled([
    http.asyncRequest("POST", `${BASE}/post`, JSON.stringify({ x: 1 })),
    http.asyncRequest("GET", `${OTHER}/json`),
  ]);
  check(settled, {
    "all fulfilled": (s) => s.every((x) => x.status === "fulfilled"),
  });
}
