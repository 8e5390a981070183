// args: -u 2 -i 4
// An async default function chaining http.asyncRequest with then(), await and Promise.all.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { http_reqs: ["count==24"], checks: ["rate==1"] } };

export default async function () {
  const first = await http.asyncRequest("GET", "http://127.0.0.1:18481/get?step=1");
  const step = first.json("args.step");
  const second = await http.asyncRequest("POST", "http://127.0.0.1:18481/post", JSON.stringify({ step }))
    .then((r) => http.asyncRequest("GET", `http://127.0.0.1:18482/get?after=${r.json("json.step")}`));
  const all = await Promise.all(
    [1, 2, 3].map((n) => http.asyncRequest("GET", `http://127.0.0.1:18481/get?n=${n}`)),
  );
  check(second, {
    "chained": (r) => r.json("args.after") === "1",
    "all three": () => all.map((r) => r.json("args.n")).join() === "1,2,3",
  });
}
