// args: -i 2
// Thresholds by group, one on the empty group tag ({group:}): k6 refuses its malformed tag (104).
import http from "k6/http";
import { check, group } from "k6";

export const options = {
  thresholds: {
    "http_reqs{group:::api}": ["count==2"],
    "http_reqs{group:::api::v2}": ["count==2"],
    "http_reqs{group:}": ["count==2"],
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
