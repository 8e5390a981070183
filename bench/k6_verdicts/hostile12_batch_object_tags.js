// args: -u 1 -i 3
// http.batch in its object form, each entry with its own params: tags, headers and a name, then
// thresholds on those tags and names.
import http from "k6/http";
import { check } from "k6";

const B = "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    "http_reqs{page:home}": ["count==3"],
    "http_reqs{page:profile}": ["count==3"],
    "http_reqs{name:avatar}": ["count==3"],
    "http_req_duration{page:profile}": ["p(95)<5000"],
    checks: ["rate==1"],
  },
};

export default function () {
  const res = http.batch({
    home: { method: "GET", url: `${B}/get?p=home`, params: { tags: { page: "home" } } },
    profile: {
      method: "POST",
      url: `${B}/post`,
      body: JSON.stringify({ id: 7 }),
      params: { tags: { page: "profile" }, headers: { "Content-Type": "application/json", "X-Req": "p" } },
    },
    avatar: ["GET", `${B}/bytes/64`, null, { tags: { name: "avatar" } }],
  });
  check(res.home, { "home by key": (r) => r.json("args.p") === "home" });
  check(res.profile, { "profile header sent": (r) => r.json("headers.X-Req") === "p" });
  check(res.avatar, { "avatar bytes": (r) => r.body.length === 64 });
}
