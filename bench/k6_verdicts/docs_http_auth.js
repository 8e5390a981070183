// args: -u 1 -i 3
// k6's documentation's HTTP authentication: basic in the URL, a Basic header built with k6/encoding, digest
// with `auth: "digest"`, and a wrong password failing as expected.
import http from "k6/http";
import encoding from "k6/encoding";
import { check } from "k6";

const HOST = "127.0.0.1:18481";

export const options = {
  thresholds: { checks: ["rate==1"], http_req_failed: ["rate<0.45"], http_reqs: ["count==15"] },
};

export default function () {
  const inUrl = http.get(`http://user:passwd@${HOST}/basic-auth/user/passwd`);
  check(inUrl, { "basic in the URL": (r) => r.status === 200 && r.json("user") === "user" });
  const header = http.get(`http://${HOST}/basic-auth/user/passwd`, {
    headers: { Authorization: `Basic ${encoding.b64encode("user:passwd")}` },
  });
  check(header, { "basic header": (r) => r.json("authenticated") === true });
  const digest = http.get(`http://user:passwd@${HOST}/digest-auth/auth/user/passwd`, { auth: "digest" });
  check(digest, { "digest": (r) => r.status === 200 && r.json("user") === "user" });
  const wrong = http.get(`http://user:nope@${HOST}/basic-auth/user/passwd`);
  check(wrong, { "wrong password refused": (r) => r.status === 401 });
}
