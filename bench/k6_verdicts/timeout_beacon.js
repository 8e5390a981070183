// args: -i 3
// A page view whose analytics beacon goes from a timer after the page answered, as front-end code
// ported to k6 sends it: the global setTimeout, not awaited; k6's iteration waits for it.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
export const options = {
  thresholds: {
    http_reqs: ["count==6"],
    "http_reqs{name:beacon}": ["count==3"],
    "checks{check:beacon accepted}": ["rate==1"],
    iteration_duration: ["min>=150"],
  },
};

export default function () {
  const page = http.get(`${BASE}/get?page=home`);
  check(page, { "page ok": (r) => r.status === 200 });
  setTimeout(() => {
    const beacon = http.post(`${BASE}/post`, JSON.stringify({ event: "view", page: "home" }), {
      tags: { name: "beacon" },
    });
    check(beacon, { "beacon accepted": (r) => r.json("json.event") === "view" });
  }, 150);
}
