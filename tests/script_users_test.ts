/**
 * A session script's virtual user that outlives one session, as Locust's does: `start(s)` once per user
 * before its first session, `s.state` kept across its sessions, and its cookie jar too, so a login in
 * `start` serves every later session (the built-in target's /me needs both the token and the cookie).
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { createTargetApp } from "../targets/app/app.ts";
import { parseAttackConfig } from "../runner/config.ts";
import { runAttack } from "../runner/attack.ts";

Deno.test("start runs once per user; its token and cookie serve the user's later sessions", async () => {
  const target = createTargetApp();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, target.fetch);
  try {
    const run = await runAttack(parseAttackConfig({
      url: `http://127.0.0.1:${server.addr.port}`,
      model: "count",
      requests: 6,
      connections: 2,
      intervalMs: 100,
      script: { path: new URL("./fixtures/scripts/locust_user.ts", import.meta.url).pathname },
    }));
    const flow = run.flows![0];
    assertEquals([flow.sessions, flow.completed, flow.failed], [6, 6, 0]);
    const steps = Object.fromEntries(flow.steps.map((s) => [s.label, s.requests]));
    assertEquals(steps, { login: 2, me: 6 });
    const me = flow.steps.find((s) => s.label === "me")!;
    assertEquals(me.checks?.map((c) => [c.name, c.passed, c.failed]), [["me 200", 6, 0]]);
  } finally {
    await server.shutdown();
  }
});
