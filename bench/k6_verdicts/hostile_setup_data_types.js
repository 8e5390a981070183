// args: -u 2 -i 2
// setup() data crosses to the VUs as JSON: a Date becomes a string, a function and undefined vanish.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"] } };

export function setup() {
  return { when: new Date(0), fn: () => 1, nothing: undefined, list: [1, undefined], n: NaN };
}

export default function (data) {
  http.get(`${BASE}/get`);
  check(data, {
    "date as text": (d) => d.when === "1970-01-01T00:00:00.000Z",
    "function gone": (d) => d.fn === undefined && !("fn" in d),
    "undefined gone": (d) => !("nothing" in d),
    "null in list": (d) => d.list[1] === null,
    "NaN null": (d) => d.n === null,
  });
}
