// args: -u 2 -i 6
// noVUConnectionReuse: every iteration dials anew; thresholds on the connect and TLS timings over http.
import http from "k6/http";
import { check } from "k6";

export const options = {
  noVUConnectionReuse: true,
  thresholds: {
    http_req_tls_handshaking: ["max==0"],
    http_req_connecting: ["max<3000"],
    "http_req_connecting{expected_response:true}": ["avg<3000"],
    http_reqs: ["count==12"],
  },
};

export default function () {
  const a = http.get("http://127.0.0.1:18481/get");
  const b = http.get("http://127.0.0.1:18481/get");
  check(a, { "no tls on http": (r) => r.timings.tls_handshaking === 0 });
  check(b, { "second request answered": (r) => r.status === 200 });
}
