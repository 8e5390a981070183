// args: -u 2 -i 4
// An async default function: Promise.all over asyncRequest(...).then(json) for a page of items, then
// one more request built from their answers.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
export const options = {
  thresholds: {
    http_reqs: ["count==16"],
    "http_reqs{name:item}": ["count==12"],
    checks: ["rate==1"],
  },
};

export default async function () {
  const ids = await Promise.all(
    [1, 2, 3].map((id) =>
      http.asyncRequest("GET", `${BASE}/get?id=${id}`, null, { tags: { name: "item" } })
        .then((res) => res.json("args.id"))
    ),
  );
  check(ids, { "three ids in order": (x) => x.join() === "1,2,3" });
  const res = await http.asyncRequest("POST", `${BASE}/post`, JSON.stringify({ ids }), {
    headers: { "Content-Type": "application/json" },
  });
  check(res, { "summary echoed": (r) => r.json("json.ids").length === 3 });
}
