// `http.batch` of objects and arrays, each item with its own tags and a `name`, judged by them.
import http from "k6/http";
import { check } from "k6";

export const options = {
  iterations: 3,
  thresholds: {
    "http_reqs{name:listing}": ["count==3"],
    "http_reqs{kind:write}": ["count==6"],
    "http_reqs{name:detail}": ["count==3"],
    "http_req_duration{kind:read}": ["max<5000"],
  },
};

export default function () {
  const responses = http.batch([
    {
      method: "GET",
      url: "http://127.0.0.1:18481/get?p=1",
      params: { tags: { name: "listing", kind: "read" } },
    },
    ["GET", "http://127.0.0.1:18481/get?id=7", null, { tags: { name: "detail", kind: "read" } }],
    ["POST", "http://127.0.0.1:18482/post", JSON.stringify({ a: 1 }), { tags: { kind: "write" } }],
    { method: "PUT", url: "http://127.0.0.1:18482/put", body: "x", params: { tags: { kind: "write" } } },
  ]);
  check(responses, {
    "four": (r) => r.length === 4,
    "all 200": (r) => r.every((x) => x.status === 200),
  });
}
