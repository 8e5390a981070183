// args: -u 2 -i 4
// A plain setTimeout in VU code sending a follow-up request after the iteration's body returns: k6 waits
// for the VU's event loop, so every follow-up is sent and checked within its iteration.
import http from "k6/http";
import { check } from "k6";

export const options = {
  thresholds: { "http_reqs{kind:later}": ["count==4"], "checks{check:later ok}": ["rate==1"] },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
  setTimeout(() => {
    const res = http.get("http://127.0.0.1:18482/get", { tags: { kind: "later" } });
    check(res, { "later ok": (r) => r.status === 200 });
  }, 150);
}
