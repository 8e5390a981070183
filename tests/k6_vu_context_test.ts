/**
 * A converted k6 script's virtual users stay apart where their iterations take turns: eight VUs on one
 * worker against a real echo server, each checking after every kind of wait (a request, a redirect's
 * second hop, a group, array callbacks, a batch, a rejected await's catch and finally) that `__VU` and
 * `exec.vu` are still its own and that its requests went on its own connection (no refusal of a second
 * request in flight). The script's awaits hand the VU back instead of a context entered per iteration.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { parseAttackConfig } from "../runner/config.ts";
import { runAttack } from "../runner/attack.ts";
import { sessionScriptPath } from "../runner/script/k6/convert/converted_file.ts";

function echo(req: Request): Response {
  const url = new URL(req.url);
  if (url.pathname === "/redirect") {
    return new Response(null, { status: 302, headers: { location: `/echo${url.search}` } });
  }
  return Response.json({ path: url.pathname + url.search });
}

Deno.test("eight k6 VUs of one worker each stay themselves across every wait of their iterations", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, echo);
  try {
    const path = sessionScriptPath(new URL("./fixtures/k6/vu_context.js", import.meta.url).pathname);
    ok(Deno.readTextFileSync(path).includes("resumes: true"), "converted without a context per iteration");
    const run = await runAttack(parseAttackConfig({
      url: `http://127.0.0.1:${server.addr.port}`,
      model: "count",
      requests: 32,
      connections: 8,
      workers: 1,
      intervalMs: 100,
      script: { path, routes: { "http://api.example": `http://127.0.0.1:${server.addr.port}` } },
    }));
    assertEquals(run.errors, {});
    const flow = run.flows![0];
    assertEquals([flow.sessions, flow.completed, flow.failed], [32, 32, 0]);
    const checks = flow.steps.flatMap((s) => s.checks ?? []).map((c) => [c.name, c.passed, c.failed]);
    // The group's check under k6's path; the group left when its body threw (the catch's is at the root).
    assertEquals(checks.sort(), [
      ["::g::in a group", 32, 0],
      ["after a group", 32, 0],
      ["after a redirect", 32, 0],
      ["after a request", 32, 0],
      ["array callbacks", 32, 0],
      ["batch", 32, 0],
      ["in catch", 32, 0],
      ["in finally", 32, 0],
    ]);
  } finally {
    await server.shutdown();
  }
});
