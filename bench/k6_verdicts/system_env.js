// args: -i 4
// env: API_HOST=127.0.0.1:18482 API_VERSION=v2
// Settings from the shell's environment rather than `-e`: k6 run puts every environment variable in __ENV.
import http from "k6/http";
import { check } from "k6";

const HOST = __ENV.API_HOST || "127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const res = http.get(`http://${HOST}/get?v=${__ENV.API_VERSION}`);
  check(res, { "version sent": (r) => r.json("args.v") === "v2" });
}
