// args: -u 3 -i 9
// Test data from files: a SharedArray of a JSON file and of a CSV file, a row per iteration.
import http from "k6/http";
import exec from "k6/execution";
import { check } from "k6";
import { SharedArray } from "k6/data";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const users = new SharedArray("users", () => JSON.parse(open("./data/users.json")));
const queries = new SharedArray(
  "queries",
  () =>
    open("./data/queries.csv").trim().split("\n").slice(1).map((line) => {
      const [id, query] = line.split(",");
      return { id: Number(id), query };
    }),
);

export const options = {
  thresholds: {
    "checks{check:logged in}": ["rate>0.6", "rate<0.7"],
    "http_reqs{name:login}": ["count==9"],
  },
};

export default function () {
  const u = users[exec.scenario.iterationInTest % users.length];
  const q = queries[exec.scenario.iterationInTest % queries.length];
  const res = http.post(`${BASE}/login`, JSON.stringify(u), {
    headers: { "Content-Type": "application/json" },
    tags: { name: "login" },
  });
  check(res, { "logged in": (r) => r.status === 200 });
  check(http.get(`${BASE}/get?q=${q.query}&id=${q.id}`), {
    "query echoed": (r) => r.json("args.q") === q.query,
  });
}
