// args: -i 2
// The global crypto (WebCrypto): subtle.digest, getRandomValues and randomUUID in an async default.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"] } };

export default async function () {
  const data = new Uint8Array([108, 111, 97, 100, 108, 97, 98]);
  const digest = await crypto.subtle.digest("SHA-256", data);
  const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  const id = crypto.randomUUID();
  check(null, {
    "digest": () => hex.startsWith("1829c5a2"),
    "random bytes": () => bytes.length === 8,
    "uuid v4": () => /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id),
  });
  await http.asyncRequest("GET", `http://127.0.0.1:18482/json?id=${id}`);
}
