// args: -e PROFILE=smoke
// Options built by a function from a profile name, with a spread of a profile table.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18482";
const PROFILES = {
  smoke: { vus: 1, iterations: 5 },
  load: { vus: 20, duration: "1m" },
};

function buildOptions(profile) {
  const shape = PROFILES[profile] || PROFILES.smoke;
  return {
    ...shape,
    thresholds: {
      http_reqs: [`count==${shape.iterations}`],
      http_req_failed: [{ threshold: "rate<0.01" }],
      "checks{kind:body}": ["rate>0.99"],
    },
  };
}

export const options = buildOptions(__ENV.PROFILE);

export default function () {
  const res = http.get(`${BASE}/get?i=${__ITER}`);
  check(res, { "echoes i": (r) => r.json("args.i") === String(__ITER) }, {
    kind: "body",
  });
}
