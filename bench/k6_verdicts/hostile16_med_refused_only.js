// args: -i 3
// Only refused requests (0 ms each in k6): every percentile is 0, rules on them judged on 0.
import http from "k6/http";

export const options = {
  thresholds: { http_req_duration: ["med==0", "p(99.9)==0", "p(12.5)<1"], http_req_failed: ["rate==1"] },
};

export default function () {
  http.get("http://127.0.0.1:9/refused");
}
