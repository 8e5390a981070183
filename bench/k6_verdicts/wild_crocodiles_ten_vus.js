// args: 
// counts: by duration
// Licence: ISC, its package.json states; its text: wild_licences/arn-ob+script-load-testing.LICENSE.
// From github.com/arn-ob/script-load-testing, specs/others/test.js: the team's script unchanged but for its
// one URL (https://test-api.k6.io: 404 here).
import http from "k6/http";
import { check } from "k6";

export let options = {
  vus: 10,
  duration: "5s"
};

export default function() {
  const res = http.get("http://127.0.0.1:18481/public/crocodiles/");
  check(res, {
    "status is 200": (r) => r.status === 200
  });
}
