// args: -u 1 -i 2
// options.maxRedirects: 1, a chain of 3 stops at the second hop; a request's own redirects: 5 follows it.
import http from "k6/http";
import { check } from "k6";

export const options = {
  maxRedirects: 1,
  thresholds: { "http_reqs{status:302}": ["count==10"], checks: ["rate==1"] },
};

export default function () {
  const capped = http.get("http://127.0.0.1:18481/redirect/3");
  const followed = http.get("http://127.0.0.1:18481/redirect/3", { redirects: 5 });
  check(capped, { "stopped at a redirect": (r) => r.status === 302 });
  check(followed, { "followed to the end": (r) => r.status === 200 && r.url.endsWith("/get") });
}
