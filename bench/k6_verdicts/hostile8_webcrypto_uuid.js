// args: -u 2 -i 4
// crypto.randomUUID and crypto.getRandomValues (k6's global WebCrypto) as request ids.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"], http_reqs: ["count==4"] } };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export default function () {
  const id = crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  const nonce = Array.from(bytes).map((b) => b.toString(16).padStart(2, "0")).join("");
  const res = http.get("http://127.0.0.1:18481/headers", {
    headers: { "X-Request-Id": id, "X-Nonce": nonce },
  });
  check(res, {
    "uuid v4": () => UUID.test(id),
    "nonce 16 hex": () => /^[0-9a-f]{16}$/.test(nonce),
    "id echoed": (r) => r.json("headers.X-Request-Id") === id,
  });
}
