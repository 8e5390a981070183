// args: --config data/h5_config.json -e TARGET_ENV=staging -e BASE=http://127.0.0.1:18482
// A --config file holding the load and the thresholds, the script's options naming none, and `-e` values
// the script reads for its origin and a tag: k6 takes the file's thresholds when the script has none.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE || "http://127.0.0.1:18481";

export const options = { tags: { env: __ENV.TARGET_ENV || "dev" } };

export default function () {
  const res = http.get(`${BASE}/get?env=${__ENV.TARGET_ENV}`);
  check(res, { "env sent": (r) => r.json("args.env") === "staging" });
}
