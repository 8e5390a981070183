// args: -u 1 -i 4
// http.url groups ids under one name; a params.tags.name given beside it wins, as k6's.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    "http_reqs{name:http://127.0.0.1:18481/anything/${}/items/${}}": ["count==4"],
    "http_reqs{name:OrderById}": ["count==4"],
    "http_req_duration{name:OrderById}": ["max<10000"],
    "http_reqs{url:http://127.0.0.1:18481/anything/${}/items/${}}": ["count==4"],
  },
};

export default function () {
  const user = __ITER + 1, item = __VU * 10 + __ITER;
  const a = http.get(http.url`${BASE}/anything/${user}/items/${item}`);
  const b = http.get(http.url`${BASE}/anything/orders/${item}`, { tags: { name: "OrderById" } });
  check(a, { "item echoed": (r) => r.json("url").endsWith(`/anything/${user}/items/${item}`) });
  check(b, { "order echoed": (r) => r.status === 200 });
}
