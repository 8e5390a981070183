// args: -u 1 -i 3 -e TOKEN=start
// __ENV written by one iteration and read by the next of the same VU, as a token cache does.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const seen = __ENV.TOKEN;
  __ENV.TOKEN = `iter-${__ITER}`;
  const res = http.get(`http://127.0.0.1:18481/get?token=${seen}`);
  check(res, {
    "token carried over": (r) => r.json("args.token") === (__ITER === 0 ? "start" : `iter-${__ITER - 1}`),
  });
}
