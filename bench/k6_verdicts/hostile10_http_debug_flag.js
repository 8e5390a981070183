// args: -u 1 -i 2 --http-debug=full
// `--http-debug=full` left on in a CI job: the dumps go to the log; the verdict is the thresholds'.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"], http_req_failed: ["rate==0"] } };

export default function () {
  const r = http.post("http://127.0.0.1:18481/post", { user: "a", pass: "b" });
  check(r, { "form echoed": (res) => res.json("form.user") === "a" });
}
