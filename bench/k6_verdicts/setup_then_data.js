// args: -i 2
// setup() returns data built from a promise chain it awaits; iterations read it.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"] } };

export async function setup() {
  const ids = await Promise.all(
    [1, 2, 3].map((n) => http.asyncRequest("GET", `${BASE}/get?id=${n}`).then((r) => r.json("args.id"))),
  );
  return { ids };
}

export default function (data) {
  check(data, { "three ids": (d) => d.ids.join() === "1,2,3" });
}
