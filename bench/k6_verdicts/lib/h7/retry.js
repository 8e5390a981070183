// A team's helpers taking callbacks: retry a request until it is answered 2xx, and cache a token a login
// callback fetches once per VU.
let cached = null;

export function withRetry(send, attempts) {
  let res = send();
  for (let i = 1; i < attempts && res.status >= 300; i++) res = send();
  return res;
}

export function token(login) {
  if (cached === null) cached = login().json("json.user");
  return cached;
}
