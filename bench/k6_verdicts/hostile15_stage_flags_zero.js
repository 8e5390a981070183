// args: -s 1s:0 -s 1s:2 -s 500ms:0
// counts: by duration
// Stages from the command line, starting and ending at 0, over a script's own iterations option.
import http from "k6/http";
import { sleep } from "k6";

export const options = { iterations: 50, thresholds: { http_reqs: ["count>0"], vus_max: ["value==2"] } };

export default function () {
  http.get("http://127.0.0.1:18481/get");
  sleep(0.25);
}
