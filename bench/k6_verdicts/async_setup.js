// args: -i 2
// An async setup() awaiting http.asyncRequest for a token, and an async teardown.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: { checks: ["rate==1"], http_reqs: ["count==4"] },
};

export async function setup() {
  const res = await http.asyncRequest(
    "POST",
    `${BASE}/post`,
    JSON.stringify({ user: "ann" }),
    {
      headers: { "Content-Type": "application/json" },
    },
  );
  return { user: res.json("json.user") };
}

export default function (data) {
  check(http.get(`${BASE}/get?user=${data.user}`), {
    "user from setup": (r) => r.json("args.user") === "ann",
  });
}

export async function teardown(data) {
  await http.asyncRequest("GET", `${BASE}/get?bye=${data.user}`);
}
