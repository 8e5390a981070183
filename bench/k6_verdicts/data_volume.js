// args: -u 2 -i 6
// Thresholds on the bytes a test moves: data_received and data_sent counts and rates.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    data_received: ["count>1000", "rate>0"],
    data_sent: ["count>500", "count<100000"],
    http_reqs: ["count==6", "rate>0"],
  },
};

export default function () {
  http.post(`${BASE}/post`, JSON.stringify({ payload: "x".repeat(100) }), {
    headers: { "Content-Type": "application/json" },
  });
}
