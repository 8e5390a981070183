// args: -i 3 --system-tags status,method,name --out json=/tmp/loadlab-k6-verdicts-tag-points.json
// k6's NDJSON cut down by --system-tags: each point carries status, method and name only (the run's and
// the script's own tags besides), and thresholds by them hold.
import http from "k6/http";
import { check } from "k6";
import { Trend } from "k6/metrics";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const size = new Trend("body_size");

export const options = {
  tags: { env: "ci" },
  thresholds: {
    "http_reqs{name:login}": ["count==3"],
    "http_reqs{status:200,method:POST}": ["count==3"],
    "body_size{env:ci}": ["avg>0"],
    "checks{check:posted}": ["rate==1"],
  },
};

export default function () {
  const res = http.post(`${BASE}/post`, "x", { tags: { name: "login" } });
  size.add(res.body.length);
  check(res, { posted: (r) => r.status === 200 });
}
