import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { createTargetApp } from "./app.ts";

const { fetch } = createTargetApp();
const base = "http://127.0.0.1";

async function call(path: string, init?: RequestInit): Promise<[number, unknown, string | null]> {
  const res = await fetch(new Request(base + path, init));
  return [res.status, await res.json(), res.headers.get("set-cookie")];
}

Deno.test("POST /login gives a token and a session cookie; GET /me needs both, of the same user", async () => {
  const login = (user: string, password: string) =>
    call("/login", { method: "POST", body: JSON.stringify({ user, password }) });
  const [status, body, cookie] = await login("ada", "secret");
  const token = (body as { token: string }).token;
  assertEquals([status, (body as { user: string }).user], [200, "ada"]);
  const session = cookie!.split(";")[0];
  const me = (headers: Record<string, string>) => call("/me", { headers });
  assertEquals((await me({ authorization: `Bearer ${token}`, cookie: session })).slice(0, 2), [200, {
    user: "ada",
  }]);
  assertEquals((await me({ authorization: `Bearer ${token}` }))[0], 401);
  assertEquals((await me({ cookie: session }))[0], 401);
  const [, other] = await login("bob", "secret");
  assertEquals(
    (await me({ authorization: `Bearer ${(other as { token: string }).token}`, cookie: session }))[0],
    401,
  );
  assertEquals((await me({ authorization: `Bearer ${token.slice(0, -1)}x`, cookie: session }))[0], 401);
  assertEquals((await login("ada", "wrong"))[0], 401);
  assertEquals((await call("/login", { method: "POST", body: "not json" }))[0], 401);
});
