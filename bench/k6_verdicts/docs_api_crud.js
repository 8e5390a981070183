// args: -u 2 -i 4
// k6's documentation's CRUD example, in its idiom: a JSON object created, read, updated (PUT and PATCH)
// and deleted, each answer checked, with a request name per step.
import http from "k6/http";
import { check, group } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    checks: ["rate==1"],
    "http_reqs{name:Create}": ["count==4"],
    "http_reqs{method:DELETE}": ["count==4"],
    "http_reqs{method:PATCH}": ["count==4"],
  },
};

const params = (name) => ({ headers: { "Content-Type": "application/json" }, tags: { name } });

export default function () {
  const payload = { name: "Paul Klee", born: 1879 };
  group("01. Create a new crocodile", () => {
    const res = http.post(`${BASE}/post`, JSON.stringify(payload), params("Create"));
    check(res, { "created": (r) => r.status === 200 && r.json("json.name") === "Paul Klee" });
  });
  group("02. Fetch", () => {
    const res = http.get(`${BASE}/get?id=1`, { tags: { name: "Fetch" } });
    check(res, { "fetched": (r) => r.json().args.id === "1" });
  });
  group("03. Update", () => {
    const put = http.put(`${BASE}/put`, JSON.stringify({ ...payload, born: 1880 }), params("Update"));
    const patch = http.patch(`${BASE}/patch`, JSON.stringify({ born: 1881 }), params("Update"));
    check(put, { "put": (r) => r.json("json.born") === 1880 });
    check(patch, { "patch": (r) => r.json("json.born") === 1881 });
  });
  group("04. Delete", () => {
    const res = http.del(`${BASE}/delete`, JSON.stringify({ id: 1 }), params("Delete"));
    check(res, { "deleted with a body": (r) => r.json("json.id") === 1 });
  });
}
