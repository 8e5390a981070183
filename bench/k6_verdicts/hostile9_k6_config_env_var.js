// env: K6_CONFIG=data/h9_config.json
// The load, tags and thresholds come from a config file named by K6_CONFIG; the script sets no options.
import http from "k6/http";
import { check } from "k6";

export default function () {
  const res = http.get("http://127.0.0.1:18481/get?from=config");
  check(res, { "echoed": (r) => r.json("args.from") === "config" });
}
