// Request helpers the suite's tests share: tagged calls against the configured base URL.
import http from "k6/http";
import { check } from "k6";
import { BASE } from "./config.js";
import { userFor } from "./data.js";

const JSON_HEADERS = { "Content-Type": "application/json" };

export function getUser(vu) {
  const u = userFor(vu);
  const res = http.get(`${BASE}/anything/users/${u.id}`, { tags: { endpoint: "user" } });
  check(res, { "user fetched": (r) => r.status === 200 && r.json("url").endsWith(`/users/${u.id}`) });
  return u;
}

export function postOrder(user, qty) {
  const res = http.post(`${BASE}/post`, JSON.stringify({ user: user.name, qty }), {
    headers: JSON_HEADERS,
    tags: { endpoint: "order" },
  });
  check(res, { "order echoed": (r) => r.json("json.qty") === qty });
  return res;
}
