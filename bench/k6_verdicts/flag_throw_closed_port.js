// args: -i 2 -w
// k6's -w (--throw): a refused request throws, the script counts what it caught.
import http from "k6/http";
import { Counter } from "k6/metrics";

const caught = new Counter("caught_errors");

export const options = {
  thresholds: { caught_errors: ["count==2"], http_req_failed: ["rate==1"] },
};

export default function () {
  try {
    http.get("http://127.0.0.1:1/nothing");
  } catch (_e) {
    caught.add(1);
  }
}
