// args: -u 2 -i 4
// An async setup() awaiting asyncRequests together, and an async default awaiting its own, the way a
// team ports promise-based client code.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"], "http_reqs{phase:setup}": ["count==3"] } };

export async function setup() {
  const replies = await Promise.all(
    [1, 2, 3].map((n) =>
      http.asyncRequest("POST", "http://127.0.0.1:18481/post", JSON.stringify({ n }), {
        tags: { phase: "setup" },
      })
    ),
  );
  return { ids: replies.map((r) => r.json("json.n")) };
}

export default async function (data) {
  const [a, b] = await Promise.all([
    http.asyncRequest("GET", `http://127.0.0.1:18481/get?id=${data.ids[0]}`),
    http.asyncRequest("GET", `http://127.0.0.1:18482/get?id=${data.ids[2]}`),
  ]);
  check(a, { "setup data": () => data.ids.join() === "1,2,3", "both ok": () => a.status + b.status === 400 });
}
