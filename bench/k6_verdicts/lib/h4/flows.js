// Flows a team keeps in a module and names as scenario execs from the main script.
import http from "k6/http";
import { check, sleep } from "k6";

export const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export function browse() {
  const res = http.get(`${BASE}/get?page=home`, { tags: { flow: "browse" } });
  check(res, { "browse 200": (r) => r.status === 200 });
  sleep(0.1);
}

export function buy() {
  const res = http.post(`${BASE}/post`, JSON.stringify({ sku: "A1", qty: 1 }), {
    headers: { "Content-Type": "application/json" },
    tags: { flow: "buy" },
  });
  check(res, { "buy echoed": (r) => r.json("json.sku") === "A1" });
}
