// args: -u 1 -i 4
// Checks carrying their own tags (check's third argument), judged by rate thresholds on those tags.
import http from "k6/http";
import { check } from "k6";

export const options = {
  thresholds: {
    "checks{kind:api}": ["rate==1"],
    "checks{kind:web}": ["rate<0.6"],
    "checks{kind:none}": ["rate==0"],
  },
};

export default function () {
  const res = http.get("http://127.0.0.1:18481/get");
  check(res, { "api ok": (r) => r.status === 200 }, { kind: "api" });
  check(res, { "web ok": (r) => r.status === 200, "web html": (r) => r.body.includes("<html") }, {
    kind: "web",
  });
}
