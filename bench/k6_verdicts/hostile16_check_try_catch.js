// args: -i 3
// A check's throw caught by the script: the checks made so far count, the iteration goes on.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate>=0.5"], "http_reqs{name:after}": ["count==3"] } };

export default function () {
  const res = http.get("http://127.0.0.1:18481/get");
  try {
    check(res, {
      first: () => true,
      boom: () => {
        throw new Error("boom");
      },
    });
  } catch (e) {
    console.log(`caught ${e.message}`);
  }
  http.get("http://127.0.0.1:18481/get", { tags: { name: "after" } });
}
