// args: -u 1 -i 2
// Header values built from variables of any type: a list, a number, a boolean, a null left unset.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"], http_req_failed: ["rate==0"] } };

const token = null;

export default function () {
  const r = http.get("http://127.0.0.1:18481/headers", {
    headers: { "X-Trace": [__VU, __ITER], "X-Retry": 0, "X-Debug": false, Authorization: token },
  });
  check(r, {
    "list joined": (res) => res.json("headers.X-Trace") === `${__VU},${__ITER}`,
    "number and boolean": (res) =>
      res.json("headers.X-Retry") === "0" && res.json("headers.X-Debug") === "false",
    "unset token sent as text": (res) => res.json("headers.Authorization") === "null",
  });
}
