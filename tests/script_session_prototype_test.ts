/**
 * A session script that changes loadlab's objects through the prototypes all sessions share (the
 * session's `endWithBody`, which the engine calls on each new session; a response's `json`): the change
 * fails at its line and that session alone, where the first stalled every later session of its worker
 * (the run reading 'still waiting at the end of the graceful stop', a few requests a second) and the
 * second answered every later session's json with the script's. Through a real worker isolate against
 * the built-in target; a count of 40 sessions on two connections.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { parseAttackConfig } from "../runner/config.ts";
import { runAttack } from "../runner/attack.ts";
import { withTarget } from "./helpers.ts";

const SCRIPT = new URL("./fixtures/scripts/patching_session.ts", import.meta.url).pathname;

Deno.test("a change to a prototype every session shares fails at its line, the other sessions whole", () =>
  withTarget(async (url) => {
    const run = await runAttack(parseAttackConfig({
      url,
      model: "count",
      requests: 40,
      connections: 2,
      workers: 1,
      gracefulStopMs: 200,
      intervalMs: 100,
      maxDurationMs: 20_000,
      script: { path: SCRIPT },
    }));
    assertEquals(run.requests, 40, JSON.stringify(run.errorMessages));
    const messages = Object.keys(run.errorMessages?.script ?? {}).toSorted();
    assertEquals(messages.length, 2, JSON.stringify(messages));
    ok(
      /^Cannot assign to read only property 'endWithBody' .*\(patching_session\.ts:8\)$/.test(messages[0]),
      messages[0],
    );
    ok(
      /^Cannot assign to read only property 'json' .*\(patching_session\.ts:10\)$/.test(messages[1]),
      messages[1],
    );
    const checks = run.flows![0].steps[0].checks ?? [];
    assertEquals(checks.map((c) => [c.name, c.failed]), [["real json", 0]]);
  }));
