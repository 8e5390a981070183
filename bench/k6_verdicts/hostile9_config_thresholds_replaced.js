// args: --config data/h9_strict.json -u 2 -i 4
// The config file's thresholds (which would fail) give way to the script's own: k6 replaces them whole.
import http from "k6/http";
import { check } from "k6";

export const options = {
  thresholds: { http_reqs: ["count==4"], checks: ["rate==1"] },
};

export default function () {
  check(http.get("http://127.0.0.1:18481/get"), { "200": (r) => r.status === 200 });
}
