// args: -i 4
// A submetric's percentiles are its own: a fast name and a slow name, p(50) of each apart.
import http from "k6/http";

export const options = {
  thresholds: {
    "http_req_duration{name:fast}": ["p(50)<250"],
    "http_req_duration{name:slow}": ["p(50)>250", "p(5)>250"],
    http_req_duration: ["p(50)>50"],
  },
};

export default function () {
  http.get("http://127.0.0.1:18481/get", { tags: { name: "fast" } });
  http.get("http://127.0.0.1:18481/delay/0.4", { tags: { name: "slow" } });
}
