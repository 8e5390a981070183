// args: -i 4
// Threshold keys written loosely: spaces inside the braces and around the colon.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18482";

export const options = {
  thresholds: {
    "http_req_duration{ name: home }": ["p(95)<3000"],
    "http_reqs{name:home}": ["count==4"],
  },
};

export default function () {
  http.get(`${BASE}/json`, { tags: { name: "home" } });
}
