// args: -u 1 -i 3
// discardResponseBodies with responseType "text" per request where the body is read; "none" elsewhere.
import http from "k6/http";
import { check } from "k6";

export const options = {
  discardResponseBodies: true,
  thresholds: { checks: ["rate==1"], data_received: ["count>1000"] },
};

export default function () {
  const bulk = http.get("http://127.0.0.1:18481/bytes/1024");
  const read = http.get("http://127.0.0.1:18481/get?x=1", { responseType: "text" });
  const none = http.get("http://127.0.0.1:18481/get", { responseType: "none" });
  const bin = http.get("http://127.0.0.1:18481/bytes/4", { responseType: "binary" });
  check(null, {
    "bulk discarded": () => bulk.body === null && bulk.status === 200,
    "read kept": () => read.json("args.x") === "1",
    "none discarded": () => none.body === null,
    "binary bytes": () => new Uint8Array(bin.body)[3] === 3,
  });
}
