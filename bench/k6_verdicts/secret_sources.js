// args: -i 3 --secret-source=file=name=vault,default,data/secrets.txt --secret-source=mock=name=ops,key=ops-key-2
// k6/secrets from two sources: the default file's token on every request, a named source's key, and a
// missing key's rejection caught; the values are redacted from what the script logs.
import http from "k6/http";
import secrets from "k6/secrets";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"], http_req_failed: ["rate==0"] } };

export default async function () {
  const token = await secrets.get("api-token");
  const opsKey = await secrets.source("ops").get("key");
  console.log(`token ${token}, ops key ${opsKey}`);
  const res = http.get(`${BASE}/get`, { headers: { Authorization: `Bearer ${token}` } });
  const missing = await secrets.get("nope").then(() => "found", (err) => String(err));
  check(res, {
    "sent with the token": (r) => r.status === 200,
    "both sources read": () => token === "corpus-token-1" && opsKey === "ops-key-2",
    "a missing key rejects": () => missing !== "found",
  });
}
