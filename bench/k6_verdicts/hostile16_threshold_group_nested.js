// args: -i 2
// Thresholds on http metrics by group (nested and root-level requests apart), checks by group.
import http from "k6/http";
import { check, group } from "k6";

export const options = {
  thresholds: {
    "http_reqs{group:::api}": ["count==2"],
    "http_reqs{group:::api::v2}": ["count==2"],
    http_reqs: ["count==6"],
    "checks{group:::api}": ["rate==1"],
  },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
  group("api", () => {
    const res = http.get("http://127.0.0.1:18481/get");
    check(res, { ok: (r) => r.status === 200 });
    group("v2", () => http.get("http://127.0.0.1:18482/json"));
  });
}
