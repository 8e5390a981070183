// args: -u 1 -i 2
// URLs as people paste them: a raw space, non-ASCII, dot segments, a bare %, a fragment, credentials,
// an upper-case scheme and host; statuses, url tags and the server's view compared with k6's.
import http from "k6/http";
import { check } from "k6";

const B = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    "http_reqs{url:http://127.0.0.1:18481/anything/a/../b}": ["count==2"],
    "http_reqs{url:http://127.0.0.1:18481/anything/caf%C3%A9}": ["count==2"],
    "http_reqs{url:http://127.0.0.1:18481/get?q=100%}": ["count==2"],
    "http_reqs{url:http://127.0.0.1:18481/get?x=1#top}": ["count==2"],
    "http_reqs{url:http://127.0.0.1:18481/get}": ["count==2"],
    "http_reqs{status:400}": ["count==2"],
  },
};

export default function () {
  const spaced = http.get(`${B}/get?q=new york`);
  const dots = http.get(`${B}/anything/a/../b`);
  const cafe = http.get(`${B}/anything/café`);
  const pct = http.get(`${B}/get?q=100%`);
  const frag = http.get(`${B}/get?x=1#top`);
  const creds = http.get("http://user:pass@127.0.0.1:18481/basic-auth/user/pass");
  const upper = http.get("HTTP://127.0.0.1:18481/get");
  const bad = http.get(`${B}/anything/50%off`);
  check(spaced, { "raw space refused by the server": (r) => r.status === 400 });
  check(dots, { "dot segments reach the server": (r) => r.status === 200 });
  check(cafe, { "non-ascii path escaped": (r) => r.url.endsWith("/anything/caf%C3%A9") });
  check(pct, { "bare % in the query kept": (r) => r.status === 200 && r.url.endsWith("q=100%") });
  check(frag, { "fragment not sent": (r) => r.json("args.x") === "1" });
  check(creds, { "credentials as basic auth": (r) => r.status === 200 && r.json("authenticated") === true });
  check(upper, { "upper-case scheme": (r) => r.status === 200 && r.url === `${B}/get` });
  check(bad, { "bad escape is an invalid URL": (r) => r.status === 0 && r.error_code === 1020 });
}
