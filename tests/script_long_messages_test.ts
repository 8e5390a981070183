/**
 * A script's thrown messages far past the length names keep (100,000 characters; non-ASCII text cleaned
 * as well as cut) keep the script's `file:line` at their end, where cutting the whole line lost it: a
 * session's (through a real worker isolate), setup()'s and teardown()'s (with "no load was sent" after
 * setup's), and a k6 handleSummary's and a top level's, each printed whole (a 5 MB line). Against the
 * built-in target; counts of a few sessions.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { parseAttackConfig } from "../runner/config.ts";
import { runAttack } from "../runner/attack.ts";
import { MAX_NAME_CHARS } from "../validation/shown_name.ts";
import { existsSync } from "node:fs";
import { runScriptFile, withTarget } from "./helpers.ts";
import { testPool } from "./fixtures/test_pool.ts";

/** Each case waits on its `loadlab` children: three at once. */
const pool = testPool(3);

const SCRIPT = new URL("./fixtures/scripts/long_messages.ts", import.meta.url).pathname;

pool.test("thrown and unhandled messages past the names' length keep their file:line, cut before it", () =>
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

/** A session script whose `hook` throws a one-line message of 100,000 characters at line 5. */
const hookThrows = (hook: string) =>
  `export const options = { targets: { app: { kind: "builtin" } }, loads: { l: { model: "count", requests: 2 } } };
import type { Session } from "${new URL("../runner/script/session.ts", import.meta.url).pathname}";
export default async (s: Session) => { await s.get("/"); };
export function ${hook}() {
  throw new Error("refused: " + "b".repeat(100_000));
}
`;

pool.test("setup() and teardown() that throw a long message are told with their line, the line bounded", async () => {
  const setup = await runScriptFile("long_setup.ts", hookThrows("setup"));
  assertEquals(setup.code, 2, setup.text.slice(0, 2_000));
  const told = setup.text.split("\n").find((l) => l.includes("setup() failed"));
  ok(told !== undefined && told.length < 500, setup.text.slice(0, 2_000));
  ok(told.endsWith(" (long_setup.ts:5); no load was sent"), told);
  const teardown = await runScriptFile("long_teardown.ts", hookThrows("teardown"));
  assertEquals(teardown.code, 0, teardown.text.slice(0, 2_000));
  const results = JSON.parse(Deno.readTextFileSync(`${teardown.dir}/out/results.json`));
  const error: string = results.runs[0].teardownError;
  ok(error.length <= MAX_NAME_CHARS && error.endsWith(" (long_teardown.ts:5)"), error);
});

pool.test("a k6 handleSummary that throws a long message is told on one bounded line with its line", () =>
  withTarget(async (url) => {
    const run = await runScriptFile(
      "summary.js",
      `import http from "k6/http";
export const options = { iterations: 1 };
export default function () { http.get("${url}/"); }
export function handleSummary() {
  throw new Error("no summary: " + "q".repeat(100_000));
}
`,
    );
    assertEquals(run.code, 0, run.text.slice(0, 2_000));
    ok(run.text.length < 10_000, `${run.text.length} characters of output`);
    ok(
      /handleSummary\(\) failed: no summary: q+… \([\d,]+ chars, sha256:[0-9a-f]{8}\) \(summary\.js:5\); k6's own summary follows/
        .test(run.text),
      run.text,
    );
    ok(existsSync(`${run.dir}/out/results.json`));
  }));

pool.test("a top level that throws a long message is refused on one bounded line from its place", async () => {
  const run = await runScriptFile(
    "long_top.ts",
    `throw new Error("not configured: " + "c".repeat(100_000));\nexport default async (_s: unknown) => {};\n`,
  );
  assertEquals(run.code, 2, run.text.slice(0, 2_000));
  ok(run.text.length < 2_000, `${run.text.length} characters of output`);
  ok(
    /long_top\.ts:1: does not load: not configured: c+… \([\d,]+ chars, sha256:[0-9a-f]{8}\)/.test(run.text),
    run.text,
  );
});
