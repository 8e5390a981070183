// args: -i 2
// A file read as bytes with open(path, "b") and posted as the body; checks on what the server received.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const bytes = open("./data/users.json", "b");
const text = open("./data/users.json");

export const options = { thresholds: { checks: ["rate==1"], data_sent: ["count>0"] } };

export default function () {
  const res = http.post(`${BASE}/post`, bytes, { headers: { "Content-Type": "application/octet-stream" } });
  check(res, {
    "bytes are an ArrayBuffer": () => bytes instanceof ArrayBuffer,
    "body arrived whole": (r) => r.json("data") === text,
  });
}
