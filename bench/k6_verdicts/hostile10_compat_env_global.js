// args: -u 1 -i 2
// env: K6_COMPATIBILITY_MODE=base
// `K6_COMPATIBILITY_MODE=base` from the job's environment: no `global` alias, so a helper falls back.
import http from "k6/http";
import { check } from "k6";

const root = typeof global !== "undefined" ? global : globalThis;
root.BASE = "http://127.0.0.1:18482";

export const options = { thresholds: { checks: ["rate==1"], "checks{mode:base}": ["rate==1"] } };

export default function () {
  const r = http.get(`${root.BASE}/`);
  check(r, { "reached": (res) => res.status === 200 });
  check(root, { "no global alias": () => typeof global === "undefined" }, { mode: "base" });
}
