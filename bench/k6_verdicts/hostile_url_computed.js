// args: -i 3 -e ADDR=127.0.0.1:18481
// No URL anywhere in the text: setup() joins one from __ENV, the iterations post where a response says.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"], http_reqs: ["count==7"] } };

export function setup() {
  return { base: ["http", "://", __ENV.ADDR].join("") };
}

export default function (data) {
  const next = http.get(`${data.base}/get`).json("url").replace("/get", "/post");
  check(http.post(next, "x"), { "posted": (r) => r.status === 200 });
}
