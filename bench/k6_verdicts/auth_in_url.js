// args: -u 2 -i 4
// Credentials the way older scripts carry them: user:password in the URL (basic auth), and params.auth
// "digest" with the credentials in the URL; a wrong password is a 401, and
// so is each digest request's first answer (its challenge).
import http from "k6/http";
import { check } from "k6";

const HOST = __ENV.HOST || "127.0.0.1:18481";

export const options = {
  thresholds: {
    "http_reqs{status:401}": ["count==8"],
    "http_reqs{status:200}": ["count==8"],
    checks: ["rate==1"],
  },
};

export default function () {
  const basic = http.get(`http://alice:s3cret@${HOST}/basic-auth/alice/s3cret`);
  check(basic, { "basic ok": (r) => r.status === 200 && r.json("user") === "alice" });
  const wrong = http.get(`http://alice:nope@${HOST}/basic-auth/alice/s3cret`);
  check(wrong, { "wrong password refused": (r) => r.status === 401 });
  const digest = http.get(`http://bob:pw@${HOST}/digest-auth/auth/bob/pw`, { auth: "digest" });
  check(digest, { "digest ok": (r) => r.status === 200 });
}
