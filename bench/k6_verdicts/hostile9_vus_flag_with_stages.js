// args: -u 3
// --vus alone beside the script's stages: the stages stay, starting from 3 VUs (k6's startVUs).
import http from "k6/http";
import exec from "k6/execution";
import { check, sleep } from "k6";

export const options = {
  stages: [{ duration: "1s", target: 1 }, { duration: "1s", target: 0 }],
  thresholds: { checks: ["rate==1"], "http_reqs{scenario:default}": ["count>0"] },
};

export default function () {
  http.get("http://127.0.0.1:18481/get?from=stages");
  check(exec.instance, { "3 VUs made": (i) => i.vusInitialized === 3 });
  sleep(0.3);
}
