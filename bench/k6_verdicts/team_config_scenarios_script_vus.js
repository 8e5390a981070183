// args: --config data/tier_scenarios.json
// A config file's scenarios under the script's vus and duration: the script's tier drops the file's
// scenarios, so the default function runs and `other` never does.
import http from "k6/http";
import { sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  vus: 1,
  duration: "1s",
  thresholds: { "http_reqs{name:main}": ["count>3"], "http_reqs{name:other}": ["count==0"] },
};

export function other() {
  http.get(`${BASE}/get?other`, { tags: { name: "other" } });
}

export default function () {
  http.get(`${BASE}/get`, { tags: { name: "main" } });
  sleep(0.1);
}
