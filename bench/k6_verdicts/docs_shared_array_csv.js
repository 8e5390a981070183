// args: -u 3 -i 9
// k6's documentation's data parameterization: a CSV read in a SharedArray (parsed by hand, as without
// papaparse), one user per iteration picked by scenario.iterationInTest, and a JSON file's array.
import http from "k6/http";
import { check } from "k6";
import { SharedArray } from "k6/data";
import exec from "k6/execution";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

const csvData = new SharedArray("users", function () {
  const [header, ...lines] = open("./data/docs_users.csv").trim().split("\n");
  const keys = header.split(",");
  return lines.map((line) => Object.fromEntries(line.split(",").map((v, k) => [keys[k], v])));
});
const jsonData = new SharedArray("json users", () => JSON.parse(open("./data/users.json")));

export const options = {
  thresholds: { checks: ["rate==1"], "http_reqs{role:admin}": ["count>=2", "count<=3"] },
};

export default function () {
  const user = csvData[exec.scenario.iterationInTest % csvData.length];
  const res = http.post(`${BASE}/post`, { username: user.username, password: user.password }, {
    tags: { role: user.role },
  });
  check(res, {
    "posted the user": (r) => r.json("form.username") === user.username,
    "length": () => csvData.length === 4,
    "json array read": () => jsonData.length > 0,
    "frozen": () => {
      try {
        csvData[0].username = "mallory";
      } catch (_) { /* strict mode throws */ }
      return csvData[0].username === "alice";
    },
  });
}
