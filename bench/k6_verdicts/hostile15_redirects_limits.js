// args: -i 2
// redirects: 0 stops at the 302; maxRedirects 1 on the test stops after one hop; each hop a request.
import http from "k6/http";
import { check } from "k6";

export const options = {
  maxRedirects: 1,
  thresholds: { http_reqs: ["count==10"], checks: ["rate==1"], "http_reqs{status:302}": ["count==6"] },
};

export default function () {
  const none = http.get("http://127.0.0.1:18481/redirect/2", { redirects: 0 });
  const one = http.get("http://127.0.0.1:18481/redirect/3");
  const many = http.get("http://127.0.0.1:18481/redirect/2", { redirects: 5 });
  check(null, {
    "none stops": () => none.status === 302 && none.url.endsWith("/redirect/2"),
    "location": () => /redirect\/1$/.test(none.headers.Location),
    "one hop": () => one.status === 302 && one.url.endsWith("/redirect/2"),
    "many follow": () => many.status === 200 && many.url.endsWith("/get"),
  });
}
