// args: -i 3
// asyncRequest with .then chains left unawaited: k6's iteration waits for its pending promises.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: { http_reqs: ["count==6"], checks: ["rate==1"] },
};

export default function () {
  http.asyncRequest("GET", `${BASE}/get?step=1`)
    .then((r) => {
      check(r, { "first": (x) => x.json("args.step") === "1" });
      return http.asyncRequest("GET", `${BASE}/get?step=2`);
    })
    .then((r) => check(r, { "second": (x) => x.json("args.step") === "2" }));
}
