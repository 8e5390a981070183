// args: -u 1 -i 2
// http.del with a JSON body and headers, as an API deleting by payload wants it.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"], "http_reqs{method:DELETE}": ["count==4"] } };

export default function () {
  const body = JSON.stringify({ ids: [1, 2, 3], reason: "cleanup" });
  const res = http.del(`${BASE}/delete`, body, { headers: { "Content-Type": "application/json" } });
  check(res, {
    "deleted 200": (r) => r.status === 200,
    "body arrived": (r) => r.json("json.ids.length") === 3 && r.json("json.reason") === "cleanup",
  });
  const bare = http.del(`${BASE}/delete`);
  check(bare, { "no body": (r) => r.json("data") === "" });
}
