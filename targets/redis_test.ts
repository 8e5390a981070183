import { match as assertMatch, ok as assert } from "node:assert/strict";
import { TargetError } from "./errors.ts";
import { resolveRedis } from "./redis.ts";

Deno.test("no --redis and no redis-server on PATH: the error names both ways out", async () => {
  // In a process of its own: the files of a parallel pass share one process's PATH.
  const code = `import { resolveRedis } from "${new URL("./redis.ts", import.meta.url).href}";
await resolveRedis(undefined, true).catch((e) => console.log(e.constructor.name, e.message));`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--no-check", code],
    env: { PATH: "/nonexistent" },
  }).output();
  const said = new TextDecoder().decode(out.stdout);
  assertMatch(said, /^TargetError /);
  assertMatch(said, /--redis redis:\/\/host:port/);
  assertMatch(said, /install redis-server/);
});

Deno.test("a Redis that is not needed is not started", async () => {
  assert((await resolveRedis(undefined, false)) === null);
});

Deno.test("an unreachable --redis URL is a TargetError with a hint", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close(); // nothing listens there now
  const err = await resolveRedis(`redis://127.0.0.1:${port}`, true).catch((e) => e);
  assert(err instanceof TargetError, String(err));
  assertMatch(err.message, /cannot connect to Redis at redis:\/\/127\.0\.0\.1/);
  assertMatch(err.hint, /omit --redis to let loadlab start one/);
});
