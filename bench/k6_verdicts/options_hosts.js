// args: -i 3
// options.hosts: a name the team's DNS would give, pinned to the local server.
import http from "k6/http";
import { check } from "k6";

export const options = {
  hosts: { "api.shop.internal": "127.0.0.1:18482" },
  thresholds: { checks: ["rate==1"] },
};

export default function () {
  check(http.get("http://api.shop.internal/json"), { "json is 200": (r) => r.status === 200 });
}
