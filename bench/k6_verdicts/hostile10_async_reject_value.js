// args: -u 1 -i 2
// `throw: true` with asyncRequest: a refused call rejects with Go's error value, logged by its text.
import http from "k6/http";
import { check } from "k6";

export const options = { throw: true, thresholds: { checks: ["rate==1"] } };

export default async function () {
  const outcome = await http.asyncRequest("GET", "http://127.0.0.1:1/health").then(
    () => "answered",
    (e) => `${e.message === undefined ? "value" : "Error"}: ${e}`,
  );
  check(outcome, {
    "rejected with the dial's words": (o) =>
      o === 'value: Get "http://127.0.0.1:1/health": dial tcp 127.0.0.1:1: connect: connection refused',
  });
  const ok = await http.asyncRequest("GET", "http://127.0.0.1:18481/get");
  check(ok, { "other calls resolve": (r) => r.status === 200 });
}
