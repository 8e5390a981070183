// Log in, then browse with the token (and the session cookie the jar carries by itself).
// Runnable as is against the built-in target: loadlab run examples/scripts/login_browse.ts
import type { Session } from "../../runner/script/session.ts";

export const options = {
  targets: { app: { kind: "builtin" } },
  loads: { users: { model: "connections", connections: 20, duration: "10s" } },
  thresholds: ["p99 < 100ms", "success >= 99.9%"],
};

export default async (s: Session) => {
  const login = await s.post("/login", {
    json: { user: `user${s.vu}`, password: "secret" },
    name: "login",
  });
  if (!s.check(login.status === 200, "logged in")) return; // nothing to browse without a token
  const auth = { authorization: `Bearer ${login.json<{ token: string }>().token}` };
  for (let page = 0; page < 3; page++) {
    const me = await s.get("/me", { headers: auth, name: "me" });
    s.check(me.json<{ user: string }>().user === `user${s.vu}`, "me is me");
    await s.get(`/user?delayMs=${page}`, { name: "user" }); // one name, whatever the query
    await s.sleep(50); // think time; ends at once when the run stops
  }
};
