// args: -u 1 -i 2
// options.throw with asyncRequest: the refused call rejects, and the team's catch marks it.
import http from "k6/http";
import { check } from "k6";

export const options = { throw: true, thresholds: { checks: ["rate==1"], http_reqs: ["count==4"] } };

export default async function () {
  let rejected = false;
  try {
    await http.asyncRequest("GET", "http://127.0.0.1:1/nothing");
  } catch (e) {
    rejected = String(e).includes("refused");
  }
  const ok = await http.asyncRequest("GET", "http://127.0.0.1:18481/get");
  check(rejected, { "refused call rejected": (r) => r === true });
  check(ok, { "next call answered": (r) => r.status === 200 });
}
