// args: -u 1 -i 2
// data_sent and data_received bounded by what the script sends and fetches: 2 KB bodies up, 4 KB down.
import http from "k6/http";

const BODY = "x".repeat(2048);

export const options = {
  thresholds: {
    data_sent: ["count>=8192", "count<16384"],
    data_received: ["count>=16384", "count<32768"],
    "data_received{name:blob}": ["count>=8192"],
  },
};

export default function () {
  http.post("http://127.0.0.1:18481/anything/up", BODY, { headers: { "Content-Type": "text/plain" } });
  http.post("http://127.0.0.1:18481/anything/up", BODY, { headers: { "Content-Type": "text/plain" } });
  http.get("http://127.0.0.1:18481/bytes/4096", { tags: { name: "blob" } });
}
