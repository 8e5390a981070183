// args: -i 2
// Array.from with a mapping function that sends a request per element.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18482";

export const options = {
  thresholds: { http_reqs: ["count==6"], checks: ["rate==1"] },
};

export default function () {
  const pages = Array.from(
    { length: 3 },
    (_, i) => http.get(`${BASE}/get?page=${i}`),
  );
  check(pages, {
    "three pages": (p) => p.map((r) => r.json("args.page")).join() === "0,1,2",
  });
}
