// args: -u 1 -i 2
// `dns` options and a `localhost` URL, as a team pins resolution to IPv4 for a local stack.
import http from "k6/http";
import { check } from "k6";

export const options = {
  dns: { ttl: "1m", select: "roundRobin", policy: "preferIPv4" },
  thresholds: { checks: ["rate==1"], http_req_failed: ["rate==0"] },
};

export default function () {
  const r = http.get("http://localhost:18481/get");
  check(r, { "reached": (res) => res.status === 200, "ipv4": (res) => res.remote_ip === "127.0.0.1" });
}
