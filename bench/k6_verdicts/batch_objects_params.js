// args: -i 3
// http.batch with an object of named requests, each with its own params, tags and body.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    "http_reqs{api:read}": ["count==6"],
    "http_reqs{api:write}": ["count==3"],
    "http_req_duration{name:profile}": ["max<3000"],
  },
};

export default function () {
  const responses = http.batch({
    home: {
      method: "GET",
      url: `${BASE}/json`,
      params: { tags: { api: "read" } },
    },
    profile: ["GET", `${BASE}/get?who=me`, null, {
      tags: { api: "read", name: "profile" },
    }],
    save: {
      method: "POST",
      url: `${BASE}/post`,
      body: JSON.stringify({ n: __ITER }),
      params: {
        headers: { "Content-Type": "application/json" },
        tags: { api: "write" },
      },
    },
  });
  check(responses.home, { "home ok": (r) => r.status === 200 });
  check(responses.profile, {
    "profile echoed": (r) => r.json("args.who") === "me",
  });
  check(responses.save, { "body echoed": (r) => r.json("json.n") === __ITER });
}
