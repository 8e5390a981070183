// args: -u 1 -i 3
// http.batch of named requests, each with its own tags, thresholds on those tags; responses read by name.
import http from "k6/http";
import { check } from "k6";

export const options = {
  batch: 2,
  batchPerHost: 1,
  thresholds: {
    "http_reqs{kind:read}": ["count==6"],
    "http_reqs{kind:write}": ["count==3"],
    "http_req_duration{name:profile}": ["max<5000"],
    checks: ["rate==1"],
  },
};

export default function () {
  const res = http.batch({
    home: { method: "GET", url: "http://127.0.0.1:18481/get?p=home", params: { tags: { kind: "read" } } },
    profile: ["GET", "http://127.0.0.1:18481/anything/profile", null, {
      tags: { kind: "read", name: "profile" },
    }],
    save: {
      method: "POST",
      url: "http://127.0.0.1:18481/post",
      body: JSON.stringify({ a: 1 }),
      params: { headers: { "Content-Type": "application/json" }, tags: { kind: "write" } },
    },
  });
  check(res, {
    "home args": (r) => r.home.json("args.p") === "home",
    "profile method": (r) => r.profile.json("method") === "GET",
    "save json": (r) => r.save.json("json.a") === 1,
  });
}
