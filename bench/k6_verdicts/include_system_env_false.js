// args: --include-system-env-vars=false -e ONLY=1
// env: FROM_SYSTEM=yes
// __ENV without the system's variables: the -e ones only, in init code and in the VUs alike.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const atInit = __ENV.FROM_SYSTEM === undefined && __ENV.PATH === undefined;

export const options = { vus: 1, iterations: 3, thresholds: { checks: ["rate==1"] } };

export default function () {
  http.get(`${BASE}/validate`);
  check(__ENV, {
    "-e variables only": (env) => env.ONLY === "1" && env.FROM_SYSTEM === undefined && env.PATH === undefined,
    "the same at init": () => atInit,
  });
}
