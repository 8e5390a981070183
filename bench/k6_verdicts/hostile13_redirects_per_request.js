// args: -u 1 -i 2
// redirects: 0 on one request, the default on another: the first sees the 302, the second lands.
import http from "k6/http";
import { check } from "k6";

export const options = {
  thresholds: { checks: ["rate==1"], "http_reqs{name:hop}": ["count==2"], http_reqs: ["count==8"] },
};

export default function () {
  const stopped = http.get("http://127.0.0.1:18481/redirect/2", { redirects: 0, tags: { name: "hop" } });
  const followed = http.get("http://127.0.0.1:18481/redirect/2");
  check(stopped, { "302 kept": (r) => r.status === 302, "has location": (r) => !!r.headers.Location });
  check(followed, { "landed": (r) => r.status === 200 });
}
