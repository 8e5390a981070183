// args: -i 2
// options.localIPs: requests sent from a local address the test names.
import http from "k6/http";
import { check } from "k6";

export const options = { localIPs: "127.0.0.1", thresholds: { checks: ["rate==1"] } };

export default function () {
  check(http.get("http://127.0.0.1:18481/get"), { "sent from 127.0.0.1": (r) => r.status === 200 });
}
