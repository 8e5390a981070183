// args: -e OPTIONS={"vus":2,"iterations":4,"thresholds":{"http_reqs":["count==4"],"checks":["rate==1"]}}
// The whole options object passed as JSON in one -e variable and parsed at the top of the script.
import http from "k6/http";
import { check } from "k6";

export const options = JSON.parse(__ENV.OPTIONS || "{}");

export default function () {
  check(http.get("http://127.0.0.1:18482/get"), { "ok": (r) => r.status === 200 });
}
