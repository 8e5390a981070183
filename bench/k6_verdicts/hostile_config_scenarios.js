// args: --config data/hostile_cfg.json -e SCEN=b
// A --config file with two scenarios and thresholds; the script picks which one runs from __ENV.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export function a() {
  http.get(`${BASE}/get?s=a`);
}

export function b() {
  check(http.get(`${BASE}/get?s=b`), { "b ran": (r) => r.json("args.s") === "b" });
}

export default function () {
  http.get(`${BASE}/get?s=default`);
}
