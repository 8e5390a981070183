// env: K6_ITERATIONS=3 K6_VUS=1 K6_SYSTEM_TAGS=status,method
// K6_SYSTEM_TAGS narrowed: a threshold on a tag no longer emitted sees no samples, one on status does.
import http from "k6/http";

export const options = {
  thresholds: {
    "http_reqs{status:200}": ["count==3"],
    "http_reqs{method:POST}": ["count==3"],
    "http_reqs{name:http://127.0.0.1:18481/get}": ["count==0"],
  },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
  http.post("http://127.0.0.1:18481/status/201");
}
