// args: -u 2 -i 6
// discardResponseBodies and noConnectionReuse in options, one request asking for its text back with
// responseType; checks on both bodies, a threshold on connecting time being seen.
import http from "k6/http";
import { check } from "k6";

export const options = {
  discardResponseBodies: true,
  noConnectionReuse: true,
  thresholds: { checks: ["rate==1"], http_req_connecting: ["max>=0"], http_reqs: ["count==12"] },
};

export default function () {
  const dropped = http.get("http://127.0.0.1:18481/get");
  check(dropped, { "discarded": (r) => r.body === null });
  const kept = http.get("http://127.0.0.1:18482/get?keep=1", { responseType: "text" });
  check(kept, { "kept": (r) => r.json("args.keep") === "1" });
}
