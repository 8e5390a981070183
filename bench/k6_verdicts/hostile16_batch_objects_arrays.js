// args: -i 2
// http.batch of an object keyed by name and of an array mixing strings, arrays and request objects.
import http from "k6/http";
import { check } from "k6";

export const options = {
  thresholds: { http_reqs: ["count==12"], "http_reqs{method:POST}": ["count==4"], checks: ["rate==1"] },
};

export default function () {
  const named = http.batch({
    home: "http://127.0.0.1:18481/get",
    post: { method: "POST", url: "http://127.0.0.1:18481/post", body: "a=1" },
    json: ["GET", "http://127.0.0.1:18482/json", null, { tags: { name: "json" } }],
  });
  check(named, {
    "named keys": (r) => r.home.status === 200 && r.post.status === 200 && r.json.status === 200,
  });
  const listed = http.batch([
    "http://127.0.0.1:18481/get",
    ["POST", "http://127.0.0.1:18481/post", JSON.stringify({ b: 2 })],
    { method: "GET", url: "http://127.0.0.1:18481/status/204" },
  ]);
  check(listed, { "listed": (r) => r.length === 3 && r[2].status === 204 });
}
