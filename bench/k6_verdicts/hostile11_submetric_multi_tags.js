// args: -u 1 -i 4
// Custom Trend, Rate, Counter and Gauge, each added with several tags; thresholds select two tags at once.
import http from "k6/http";
import { Counter, Gauge, Rate, Trend } from "k6/metrics";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const apiTime = new Trend("api_time", true);
const apiOk = new Rate("api_ok");
const apiCalls = new Counter("api_calls");
const apiSize = new Gauge("api_size");

export const options = {
  thresholds: {
    "api_time{name:get,status:200}": ["avg>0", "max<10000"],
    "api_time{name:post,status:200}": ["p(99)<10000"],
    "api_time{name:get,status:404}": ["max<1"],
    "api_ok{name:get,kind:read}": ["rate==1"],
    "api_calls{name:post,kind:write}": ["count==4"],
    "api_size{name:get}": ["value>0"],
  },
};

export default function () {
  const g = http.get(`${BASE}/get`);
  const p = http.post(`${BASE}/post`, "x");
  apiTime.add(g.timings.duration, { name: "get", status: String(g.status) });
  apiTime.add(p.timings.duration, { name: "post", status: String(p.status) });
  apiOk.add(g.status === 200, { name: "get", kind: "read" });
  apiCalls.add(1, { name: "post", kind: "write" });
  apiSize.add(g.body.length, { name: "get" });
}
