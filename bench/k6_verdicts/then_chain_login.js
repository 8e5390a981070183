// args: -u 2 -i 4
// A login chained with .then into a profile read that uses its token, a .catch that counts a failure,
// and a .finally that logs out; nothing awaited, as k6 v1's event loop lets a team write it.
import http from "k6/http";
import { check } from "k6";
import { Counter } from "k6/metrics";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const failures = new Counter("login_failures");
export const options = {
  thresholds: {
    http_reqs: ["count==12"],
    login_failures: ["count==0"],
    checks: ["rate==1"],
  },
};

export default function () {
  http.asyncRequest("POST", `${BASE}/post`, JSON.stringify({ token: `t-${__VU}-${__ITER}` }), {
    headers: { "Content-Type": "application/json" },
  })
    .then((login) => {
      const token = login.json("json.token");
      check(token, { "token issued": (t) => t.startsWith("t-") });
      return http.asyncRequest("GET", `${BASE}/get`, null, { headers: { Authorization: `Bearer ${token}` } });
    })
    .then((profile) =>
      check(profile, { "profile read with token": (r) => r.json("headers.Authorization") !== "" })
    )
    .catch((err) => {
      failures.add(1);
      console.error(err);
    })
    .finally(() => http.del(`${BASE}/delete`));
}
