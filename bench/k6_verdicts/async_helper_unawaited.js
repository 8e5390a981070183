// args: -i 2
// An async helper a team calls without await (fire and forget) and a promise-based pause built on
// setTimeout, awaited: k6 runs the helper's requests before the iteration ends.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
export const options = {
  thresholds: { http_reqs: ["count==8"], "http_reqs{name:audit}": ["count==4"], checks: ["rate==1"] },
};

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function audit(step) {
  await pause(20);
  const res = await http.asyncRequest("POST", `${BASE}/post`, JSON.stringify({ step }), {
    tags: { name: "audit" },
  });
  check(res, { "audit stored": (r) => r.json("json.step") === step });
}

export default async function () {
  audit("start");
  const res = http.get(`${BASE}/get?q=1`);
  check(res, { "search ok": (r) => r.status === 200 });
  await pause(10);
  http.get(`${BASE}/get?q=2`);
  audit("end");
}
