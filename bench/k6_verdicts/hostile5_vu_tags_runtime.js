// `exec.vu.tags` set per phase of the iteration (login, browse) and a `tags` option: requests and checks
// carry the phase set at their time; thresholds count them by it.
import http from "k6/http";
import { check } from "k6";
import exec from "k6/execution";

export const options = {
  vus: 2,
  iterations: 4,
  tags: { team: "web" },
  thresholds: {
    "http_reqs{phase:login}": ["count==4"],
    "http_reqs{phase:browse}": ["count==8"],
    "checks{phase:browse}": ["rate==1"],
    "http_reqs{team:web}": ["count==12"],
  },
};

export default function () {
  exec.vu.tags.phase = "login";
  http.post("http://127.0.0.1:18481/post", { user: `u${__VU}` });
  exec.vu.tags.phase = "browse";
  for (let i = 0; i < 2; i++) {
    const res = http.get(`http://127.0.0.1:18482/get?page=${i}`);
    check(res, { "page": (r) => r.json("args.page") === String(i) });
  }
  delete exec.vu.tags.phase;
}
