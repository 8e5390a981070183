import http from "k6/http";

export function login(base, user) {
  const res = http.post(`${base}/login`, JSON.stringify({ user, password: "secret" }), {
    headers: { "Content-Type": "application/json" },
  });
  return res.json("token");
}
