// args: -i 2
// A multipart upload of a binary file opened at init, its base64 sent alongside, JSON fixtures from open().
import http from "k6/http";
import { check } from "k6";
import encoding from "k6/encoding";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const users = JSON.parse(open("./data/users.json"));
const csvBytes = open("./data/queries.csv", "b");

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const b64 = encoding.b64encode(csvBytes);
  const res = http.post(`${BASE}/post`, {
    upload: http.file(csvBytes, "queries.csv", "text/csv"),
    user: JSON.stringify(users[0]),
    digest: b64,
  });
  check(res, {
    "file arrived": (r) => r.json("files.upload").startsWith("id,query"),
    "b64 round trip": (r) =>
      encoding.b64decode(r.json("form.digest"), "std", "s").startsWith(
        "id,query",
      ),
    "user field": (r) => r.json("form.user").length > 2,
    "file bytes": () => csvBytes.byteLength > 10,
  });
}
