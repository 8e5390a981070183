// args: -u 1 -i 4
// Thresholds on one check by its `check` tag and on checks by group, one of them failing by design.
import http from "k6/http";
import { check, group } from "k6";

export const options = {
  thresholds: {
    "checks{check:status ok}": ["rate==1"],
    "checks{check:is teapot}": ["rate<0.5"],
    "checks{group:::login}": ["rate==1"],
    "checks{group:::browse}": ["rate>0.9"],
  },
};

export default function () {
  group("login", () => {
    check(http.get("http://127.0.0.1:18481/get"), { "status ok": (r) => r.status === 200 });
  });
  group("browse", () => {
    check(http.get("http://127.0.0.1:18481/status/200"), { "is teapot": (r) => r.status === 418 });
  });
}
