// args: -u 2 -i 6
// `__VU` and `__ITER` in URLs, a request name and tags, with thresholds by those tags.
import http from "k6/http";
import { check } from "k6";

export const options = {
  thresholds: {
    "http_reqs{vu_tag:1}": ["count>0"],
    "http_reqs{iter:0}": ["count==2"],
    "http_req_duration{name:item}": ["max<5000"],
    checks: ["rate==1"],
  },
};

export default function () {
  const res = http.get(`http://127.0.0.1:18481/get?vu=${__VU}&iter=${__ITER}`, {
    tags: { vu_tag: `${__VU}`, iter: __ITER, name: "item" },
  });
  check(res, { "own vu": (r) => r.json("args.vu") === String(__VU) });
}
