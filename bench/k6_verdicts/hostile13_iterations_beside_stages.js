// args: --iterations 4
// --iterations on the command line beside stages in the script: k6 runs 4 shared iterations.
import http from "k6/http";

export const options = {
  stages: [{ duration: "2s", target: 2 }],
  thresholds: { iterations: ["count==4"], http_reqs: ["count==4"] },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
}
