// args: -u 1 -i 2
// maxRedirects: 0 on one request (the 302 kept, its Location read and followed by hand), the options'
// `maxRedirects: 1` cutting a two-hop chain short for the others.
import http from "k6/http";
import { check } from "k6";

export const options = {
  maxRedirects: 1,
  thresholds: { "http_reqs{status:302}": ["count==4"], checks: ["rate==1"] },
};

export default function () {
  const first = http.get("http://127.0.0.1:18481/redirect/1", { redirects: 0 });
  check(first, { "302 kept": (r) => r.status === 302, "location": (r) => r.headers.Location === "/get" });
  const followed = http.get(`http://127.0.0.1:18481${first.headers.Location}`);
  check(followed, { "followed by hand": (r) => r.status === 200 });
  const chain = http.get("http://127.0.0.1:18481/redirect/2");
  check(chain, { "cut after one hop": (r) => r.status === 302 && r.url.endsWith("/redirect/1") });
}
