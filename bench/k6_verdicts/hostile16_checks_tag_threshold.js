// args: -i 4
// checks by a check's name tag and by a custom tag set in check()'s third argument.
import http from "k6/http";
import { check } from "k6";

export const options = {
  thresholds: {
    "checks{check:status}": ["rate==1"],
    "checks{check:fast}": ["rate<1"],
    "checks{area:api}": ["rate>0.4"],
  },
};

export default function () {
  const res = http.get("http://127.0.0.1:18481/get");
  check(res, { status: (r) => r.status === 200 });
  check(res, { fast: () => __ITER % 2 === 0 }, { area: "api" });
}
