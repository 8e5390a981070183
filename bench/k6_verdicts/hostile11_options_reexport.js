// args:
// counts: by duration
// The options come from a local module by `export { options } from`, not declared in the script.
import http from "k6/http";
import { check, sleep } from "k6";
import { BASE } from "./lib/h11/options.js";

export { options } from "./lib/h11/options.js";

export default function () {
  check(http.get(`${BASE}/get`), { ok: (r) => r.status === 200 });
  sleep(0.2);
}
