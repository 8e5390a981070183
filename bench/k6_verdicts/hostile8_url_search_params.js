// args: -u 1 -i 2
// URL and URLSearchParams as globals, which k6 lacks (jslib url has them): every iteration throws at `new URL`.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"], http_reqs: ["count==0"] } };

export default function () {
  const url = new URL("http://127.0.0.1:18481/get");
  url.searchParams.append("q", "two words");
  url.searchParams.append("page", String(__ITER + 1));
  const params = new URLSearchParams({ a: "1", b: "x&y" });
  const res = http.get(url.toString());
  const res2 = http.get(`http://127.0.0.1:18481/get?${params.toString()}`);
  check(null, {
    "q decoded": () => res.json("args.q") === "two words",
    "page": () => res.json("args.page") === String(__ITER + 1),
    "ampersand kept": () => res2.json("args.b") === "x&y",
  });
}
