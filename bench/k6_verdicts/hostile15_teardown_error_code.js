// args: -i 2
// teardown() throws with every threshold held: 107, the thresholds still judged and exported.
import http from "k6/http";

export const options = { thresholds: { http_reqs: ["count==3"] } };

export default function () {
  http.get("http://127.0.0.1:18481/get");
}

export function teardown() {
  http.get("http://127.0.0.1:18482/get?teardown");
  throw new Error("cleanup failed");
}
