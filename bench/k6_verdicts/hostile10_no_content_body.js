// args: -u 1 -i 2
// A DELETE answered 204 and a refused request: a team's helper reads json() only when there is a body.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"] } };

function payload(res) {
  return res.body === null ? { empty: true } : res.json();
}

export default function () {
  const gone = http.del("http://127.0.0.1:18481/status/204");
  check(payload(gone), { "204 has no body": (p) => p.empty === true });
  const refused = http.get("http://127.0.0.1:1/");
  check(payload(refused), { "refused has no body": (p) => p.empty === true });
  const got = http.get("http://127.0.0.1:18481/get?x=1");
  check(payload(got), { "200 parsed": (p) => p.args.x === "1" });
  let threw = "";
  try {
    http.get("http://127.0.0.1:18481/status/304").json();
  } catch (e) {
    threw = String(e);
  }
  check(threw, { "json of a 304 throws k6's words": (t) => t.includes("the body is null") });
}
