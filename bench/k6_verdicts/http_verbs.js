// args: -i 2
// Every verb a REST test sends: http.request('PATCH'), put, del, head, options; thresholds by method.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const JSON_HEADERS = { headers: { "Content-Type": "application/json" } };

export const options = {
  thresholds: {
    "http_reqs{method:PATCH}": ["count==2"],
    "http_reqs{method:DELETE}": ["count==2"],
    "http_reqs{method:HEAD}": ["count==2"],
    "http_reqs{method:OPTIONS}": ["count==2"],
    "http_req_failed{method:PUT}": ["rate==0"],
  },
};

export default function () {
  const patched = http.request("PATCH", `${BASE}/patch`, JSON.stringify({ name: "new" }), JSON_HEADERS);
  check(patched, { "patch echoes body": (r) => r.json("json.name") === "new" });
  const put = http.put(`${BASE}/put`, JSON.stringify({ n: 1 }), JSON_HEADERS);
  check(put, { "put is 200": (r) => r.status === 200 });
  check(http.del(`${BASE}/delete`), { "delete is 200": (r) => r.status === 200 });
  check(http.head(`${BASE}/get`), { "head has no body": (r) => !r.body });
  http.options(`${BASE}/get`);
}
