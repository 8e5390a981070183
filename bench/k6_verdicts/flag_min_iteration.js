// args: -u 1 -d 2s --min-iteration-duration 500ms
// k6's --min-iteration-duration flag: one VU for 2 s makes four iterations, not hundreds (the pause is not in iteration_duration).
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: { iterations: ["count>=3", "count<=5"], iteration_duration: ["med<450"] },
};

export default function () {
  http.get(`${BASE}/get`);
}
