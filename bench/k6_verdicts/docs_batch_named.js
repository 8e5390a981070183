// args: -u 2 -i 4
// k6's documentation's http.batch: an array of URL strings, of arrays with params, and an object of named
// requests whose responses come back under the same names.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    checks: ["rate==1"],
    "http_reqs{name:front}": ["count==4"],
    "http_reqs{method:POST}": ["count==4"],
  },
};

export default function () {
  const plain = http.batch([`${BASE}/get?a=1`, `${BASE}/get?a=2`]);
  const arrays = http.batch([
    ["GET", `${BASE}/get?b=1`, null, { tags: { name: "front" } }],
    ["POST", `${BASE}/post`, { hello: "world!" }, { headers: { "X-Batch": "yes" } }],
  ]);
  const named = http.batch({
    front: { method: "GET", url: `${BASE}/get?c=1` },
    form: { method: "POST", url: `${BASE}/post`, body: "raw", params: { tags: { name: "front" } } },
  });
  check(plain, { "strings in order": (r) => r[0].json("args.a") === "1" && r[1].json("args.a") === "2" });
  check(arrays, {
    "array params": (r) => r[1].json("headers.X-Batch") === "yes" && r[1].json("form.hello") === "world!",
  });
  check(named, {
    "by name": (r) => r.front.json("args.c") === "1" && r.form.json("data") === "raw",
    "no index": (r) => r[0] === undefined,
  });
}
