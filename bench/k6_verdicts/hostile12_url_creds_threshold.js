// args: -u 1 -i 2
// A team's threshold on a credentialed URL, keyed as k6 tags it: the user and password masked as ****.
import http from "k6/http";
import { check } from "k6";

const URL = "http://ci:hunter2@127.0.0.1:18481/headers";

export const options = {
  thresholds: {
    "http_reqs{url:http://****:****@127.0.0.1:18481/headers}": ["count==2"],
    "http_req_duration{url:http://****:****@127.0.0.1:18481/headers}": ["max<5000"],
  },
};

export default function () {
  const res = http.get(URL);
  check(res, {
    "sent as basic auth": (r) => r.json("headers.Authorization") === "Basic Y2k6aHVudGVyMg==",
    "url keeps the credentials": (r) => r.url === URL,
  });
}
