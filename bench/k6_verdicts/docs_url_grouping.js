// args: -u 2 -i 6
// k6's documentation's URL grouping: http.url tagged templates and an explicit name tag, so dynamic URLs
// make one name; thresholds on the names.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    checks: ["rate==1"],
    [`http_reqs{name:${BASE}/get?id=\${}}`]: ["count==6"],
    "http_reqs{name:PostsItemURL}": ["count==6"],
    [`http_reqs{url:${BASE}/get?id=1}`]: ["count>=1"],
  },
};

export default function () {
  const id = (__ITER % 3) + 1;
  const a = http.get(http.url`${BASE}/get?id=${id}`);
  check(a, { "name is the template": (r) => r.request.url === `${BASE}/get?id=${id}` });
  const b = http.get(`${BASE}/get?post=${id}`, { tags: { name: "PostsItemURL" } });
  check(b, { "named": (r) => r.json("args.post") === String(id) });
}
