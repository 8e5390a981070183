// `maxRedirects: 2` for the run, `redirects: 4` on one request: a chain of three stops at the third hop
// (k6 answers with the last redirect and an error), the other follows it.
import http from "k6/http";
import { check } from "k6";
import { Counter } from "k6/metrics";

const codes = new Counter("redirect_errors");

export const options = {
  iterations: 2,
  maxRedirects: 2,
  thresholds: { checks: ["rate==1"], redirect_errors: ["count==2"] },
};

export default function () {
  const cut = http.get("http://127.0.0.1:18481/redirect/3");
  if (cut.error_code !== 0) codes.add(1);
  const followed = http.get("http://127.0.0.1:18481/redirect/3", { redirects: 4 });
  check(cut, { "cut at a redirect": (r) => r.status === 302 });
  check(followed, {
    "followed to the end": (r) => r.status === 200 && r.url.endsWith("/get"),
  });
}
