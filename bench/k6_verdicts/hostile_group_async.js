// args: -i 2
// group() with an async function, as teams write it around http.asyncRequest.
import http from "k6/http";
import { check, group } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"] } };

export default async function () {
  await group("async group", async () => {
    const res = await http.asyncRequest("GET", `${BASE}/get`);
    check(res, { "200": (r) => r.status === 200 });
  });
}
