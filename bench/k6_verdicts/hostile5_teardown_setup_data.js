// teardown() reads setup()'s data (a token and a list), sends with it, and checks there; the VUs change
// their own copies, which teardown never sees.
import http from "k6/http";
import { check } from "k6";

export const options = { vus: 2, iterations: 4, thresholds: { checks: ["rate==1"] } };

export function setup() {
  const token = http.post("http://127.0.0.1:18481/post", JSON.stringify({ t: "abc" })).json("json.t");
  return { token, ids: [1, 2, 3] };
}

export default function (data) {
  data.ids.push(__VU);
  http.get(`http://127.0.0.1:18481/get?token=${data.token}`);
}

export function teardown(data) {
  const res = http.del(`http://127.0.0.1:18482/delete?token=${data.token}`);
  check(res, {
    "teardown token": (r) => r.json("args.token") === "abc",
    "setup data unchanged": () => data.ids.length === 3,
  });
}
