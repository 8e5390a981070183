// args: -i 4
// options.systemTags [] keeps no system tag: a threshold by the script's own tags still selects, one by
// status or group sees nothing; the summary's groups and their checks go with the group tag.
import http from "k6/http";
import { check, group } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  systemTags: [],
  tags: { team: "web" },
  thresholds: {
    "http_reqs{team:web}": ["count==4"],
    "http_reqs{kind:api}": ["count==4"],
    "http_reqs{status:200}": ["count>0"],
    "group_duration{group:::api}": ["max==0"],
    checks: ["rate==1"],
  },
};

export default function () {
  group("api", () => {
    const res = http.get(`${BASE}/get`, { tags: { kind: "api", name: "get" } });
    check(res, { "got 200": (r) => r.status === 200 });
  });
}
