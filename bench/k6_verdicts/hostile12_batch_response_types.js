// args: -u 1 -i 2
// http.batch entries with their own responseType and redirects, under discardResponseBodies.
import http from "k6/http";
import { check } from "k6";

export const options = {
  discardResponseBodies: true,
  thresholds: { checks: ["rate==1"], http_reqs: ["count==8"] },
};

export default function () {
  const [kept, dropped, bin] = http.batch([
    { method: "GET", url: "http://127.0.0.1:18481/get?k=1", params: { responseType: "text" } },
    { method: "GET", url: "http://127.0.0.1:18481/redirect/1", params: { redirects: 0 } },
    ["GET", "http://127.0.0.1:18481/bytes/8", null, { responseType: "binary" }],
  ]);
  check(kept, { "text kept": (r) => r.json("args.k") === "1" });
  check(dropped, { "redirect not followed, body dropped": (r) => r.status === 302 && r.body === null });
  check(bin, { "8 bytes": (r) => r.body.byteLength === 8 });
}
