// args: -i 2
// Two requests, one fast and one 0.6 s: k6's median lies between them (about 300 ms), not at a sample.
import http from "k6/http";

export const options = {
  thresholds: {
    http_req_duration: ["med>150", "med<500", "p(10)<200", "p(75)>350"],
    "http_req_duration{name:slow}": ["med>500"],
  },
};

export default function () {
  if (__ITER === 0) http.get("http://127.0.0.1:18481/get");
  else http.get("http://127.0.0.1:18481/delay/0.6", { tags: { name: "slow" } });
}
