// args: -u 1 -i 3
// crypto.randomUUID() and getRandomValues (WebCrypto globals) as request ids and a nonce.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const id = crypto.randomUUID();
  const nonce = crypto.getRandomValues(new Uint8Array(8));
  const hex = Array.from(nonce, (b) => b.toString(16).padStart(2, "0")).join("");
  const res = http.get(`${BASE}/headers`, { headers: { "X-Request-Id": id, "X-Nonce": hex } });
  check(res, {
    "uuid v4": () => UUID.test(id),
    "id echoed": (r) => r.json("headers.X-Request-Id") === id,
    "nonce 16 hex": () => /^[0-9a-f]{16}$/.test(hex),
    "two differ": () => crypto.randomUUID() !== crypto.randomUUID(),
  });
}
