/**
 * A session script's thrown messages far past the length names keep (100,000 characters; non-ASCII text
 * cleaned as well as cut) keep the script's `file:line` at their end, where cutting the whole line lost
 * it. Through a real worker isolate against the built-in target; a count of four sessions.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { parseAttackConfig } from "../runner/config.ts";
import { runAttack } from "../runner/attack.ts";
import { MAX_NAME_CHARS } from "../validation/shown_name.ts";
import { withTarget } from "./helpers.ts";

const SCRIPT = new URL("./fixtures/scripts/long_messages.ts", import.meta.url).pathname;

Deno.test("thrown and unhandled messages past the names' length keep their file:line, cut before it", () =>
  withTarget(async (url) => {
    const run = await runAttack(parseAttackConfig({
      url,
      model: "count",
      requests: 4,
      connections: 1,
      workers: 1,
      gracefulStopMs: 200,
      intervalMs: 100,
      script: { path: SCRIPT },
    }));
    const messages = Object.entries(run.errorMessages?.script ?? {});
    const lines = messages.map(([m]) => / \((long_messages\.ts:\d+)\)$/.exec(m)?.[1]);
    assertEquals(
      lines.toSorted(),
      ["long_messages.ts:11", "long_messages.ts:8", "long_messages.ts:9"],
      JSON.stringify(messages),
    );
    for (const [m, count] of messages) {
      ok(m.length <= MAX_NAME_CHARS && /… \([\d,]+ chars, sha256:[0-9a-f]{8}\) \(/.test(m), m);
      assertEquals(count, 2, m);
    }
  }));
