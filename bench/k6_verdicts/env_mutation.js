// args: -e TOKEN=abc
// __ENV written in init code (a default filled in) and read by iterations and setup.
import http from "k6/http";
import { check } from "k6";

__ENV.REGION = __ENV.REGION || "eu";
const BASE = __ENV.BASE_URL || "http://127.0.0.1:18482";

export const options = { iterations: 2, thresholds: { checks: ["rate==1"] } };

export function setup() {
  return { region: __ENV.REGION };
}

export default function (data) {
  const res = http.get(
    `${BASE}/get?region=${__ENV.REGION}&token=${__ENV.TOKEN}`,
  );
  check(res, {
    "region default": (r) => r.json("args.region") === "eu" && data.region === "eu",
    "token from -e": (r) => r.json("args.token") === "abc",
  });
}
