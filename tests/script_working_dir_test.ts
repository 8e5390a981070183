/**
 * A script cannot move loadlab's working directory. Deno keeps one per process, shared by every isolate, so
 * a session that called `Deno.chdir` or `process.chdir` moved it under the running loadlab: `loadlab run`
 * from the script's folder with a relative out dir then failed to write results.json at the end (exit 5, the
 * run lost). Each `loadlab run` here starts in a fresh folder, as a user does, against the built-in target
 * served by this process, and is bounded (a count of sessions, 90 s at most).
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { runScriptFile, withTarget } from "./helpers.ts";

const OPTIONS = (url: string) =>
  `export const options = { targets: { app: { url: "${url}" } }, loads: { once: { model: "count", requests: 4, connections: 1 } } };`;

Deno.test("sessions that call Deno.chdir or process.chdir fail at their line; the run's results land where asked", () =>
  withTarget(async (url) => {
    const run = await runScriptFile(
      "moving.js",
      `import process from "node:process";
${OPTIONS(url)}
export default async (s) => {
  await s.get("/json", { name: "json" });
  if (s.iteration % 2 === 0) Deno.chdir("/");
  else process.chdir("/tmp");
};
`,
    );
    assertEquals(run.code, 0, run.text);
    const results = JSON.parse(Deno.readTextFileSync(`${run.dir}/out/results.json`));
    const messages = Object.keys(results.runs[0].errorMessages.script ?? {});
    assertEquals(messages.length, 2, JSON.stringify(messages));
    ok(messages.some((m) => m.startsWith("Deno.chdir() ") && m.endsWith("(moving.js:5)")), messages[0]);
    ok(messages.some((m) => m.startsWith("process.chdir() ") && m.endsWith("(moving.js:6)")), messages[1]);
    ok(messages.every((m) => m.includes("import.meta.url")), "each names the fix");
  }));

Deno.test("a top level that calls Deno.chdir is refused before any load at its line, nothing moved", () =>
  withTarget(async (url) => {
    const run = await runScriptFile(
      "moved.js",
      `${OPTIONS(url)}
Deno.chdir("/");
export default async (s) => { await s.get("/json"); };
`,
    );
    assertEquals(run.code, 2, run.text);
    ok(run.text.includes("moved.js:2: does not load: Deno.chdir() "), run.text);
    ok(!run.text.includes("    at "), `no stack: ${run.text}`);
  }));
