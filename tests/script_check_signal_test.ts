/**
 * @module
 * A signal while a session script is type-checked (`deno check`, a child process of loadlab's) ends
 * loadlab at once with 130 or 143, results.json written naming the phase, and leaves no `deno check`
 * behind: the child's process group is ended with it. The script is written fresh (never in the check's
 * cache) with types that take the checker seconds, so the signal comes while the check runs; processes are
 * found by the mark every child of loadlab inherits (LOADLAB_RUN_ID), as the suite's orphan check finds them.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { describeProcesses, markedProcesses, waitUntilGone } from "./marked_processes.ts";
import { withTempDir } from "./helpers.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const SESSION = new URL("../runner/script/session.ts", import.meta.url).pathname;

/** A session script whose type check takes seconds: 40 mapped types over 10,000 keys each. */
function slowToCheck(): string {
  const lines = [
    `// ${crypto.randomUUID()}`,
    `import type { Session } from "${SESSION}";`,
    'type D = "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9";',
  ];
  for (let i = 0; i < 40; i++) {
    lines.push(`type K${i} = \`k${i}\${D}\${D}\${D}\${D}\`;`);
    lines.push(`type M${i} = { [k in K${i}]: { v: k; n: ${i} } };`);
    lines.push(`export const v${i}: M${i}[K${i}]["v"] = "k${i}0000";`);
  }
  lines.push('export default async (s: Session) => { await s.get("/json"); };');
  return lines.join("\n") + "\n";
}

for (const [signal, code] of [["SIGTERM", 143], ["SIGINT", 130]] as const) {
  Deno.test({
    name: `${signal} during a script's type check: exit ${code} at once, no deno check left running`,
    ignore: Deno.build.os !== "linux",
    fn: () =>
      withTempDir(async (dir) => {
        const runId = `check-signal-${crypto.randomUUID()}`;
        await Deno.writeTextFile(`${dir}/slow_check.ts`, slowToCheck());
        const child = new Deno.Command(Deno.execPath(), {
          args: ["run", "-A", MAIN, "run", `${dir}/slow_check.ts`, "--out-dir", `${dir}/out`],
          stdout: "piped",
          stderr: "piped",
          env: { NO_COLOR: "1", LOADLAB_RUN_ID: runId },
          signal: AbortSignal.timeout(90_000),
        }).spawn();
        const checking = () => markedProcesses(runId).some((p) => / check /.test(p.command));
        const deadline = Date.now() + 60_000;
        // Seen once is enough: a check that falls back to `--node-modules-dir=none` leaves a gap between two.
        let seen = false;
        while (Date.now() < deadline && !(seen = checking())) await new Promise((r) => setTimeout(r, 20));
        ok(seen, "deno check started");
        const signalledMs = performance.now();
        child.kill(signal);
        const out = await child.output();
        const tookMs = performance.now() - signalledMs;
        assertEquals(out.code, code, new TextDecoder().decode(out.stderr));
        ok(tookMs < 2_000, `ended ${Math.round(tookMs)} ms after ${signal}`);
        const results = JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`));
        const { runs, complete, stoppedIn } = results;
        // The script's top level is imported while it is type-checked: the stop may name both.
        assertEquals({ runs, complete }, { runs: [], complete: false });
        ok(/^the script's type check/.test(stoppedIn), stoppedIn);
        const left = await waitUntilGone(runId, 1_000);
        ok(left.length === 0, `left running:\n${describeProcesses(left)}`);
      }),
  });
}
