// args: -u 2 -i 6
// http.url tagged templates group dynamic URLs under one name; thresholds on that name and on a name
// given by a tag over a plain URL.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    [`http_reqs{name:${BASE}/anything/users/\${}/posts/\${}}`]: ["count==6"],
    "http_reqs{name:PostsList}": ["count==6"],
    [`http_req_duration{name:${BASE}/anything/users/\${}/posts/\${}}`]: ["p(95)<3000"],
  },
};

export default function () {
  const user = __VU * 100 + __ITER;
  const res = http.get(http.url`${BASE}/anything/users/${user}/posts/${__ITER}`);
  check(res, { "url kept": (r) => r.json("url").endsWith(`/users/${user}/posts/${__ITER}`) });
  http.get(`${BASE}/anything/posts?u=${user}`, { tags: { name: "PostsList" } });
}
