/**
 * @module
 * Bad input end to end: every command run as users run it with a wrong type, an out-of-range
 * value, an unknown name (flag, command, field, preset, target, load), a missing file or an unreadable
 * one (a folder given as a file, a path under a regular file), and more connections than the open-file
 * limit allows (under `ulimit -n 256`). Each case must exit 2 (a k6 script's own errors k6's codes) with the
 * problem on stderr naming the item (the flag, or the field path such as `loads.burst.phases[1].rampTo`) and
 * the fix, before any load.
 *
 * One line, except for experiment files: those print one line per problem, every problem at once (k6's
 * `validate()` habit: fixing a file should not take one run per typo), each line `FILE: PATH: message`;
 * the multi-problem case checks that. "Before any load" is checked three ways: cases that would send
 * load point at a real Deno.serve counter on 127.0.0.1 that must see no request; `run` cases must not
 * have created their output folder (it is made, and target logs written into it, only after every
 * check passed, right before the first target starts); and no process carrying the case's
 * LOADLAB_RUN_ID is left (for the cases run as processes). `serve` and `site` would block until Ctrl-C, so
 * exiting 2 at all shows they never served. Most cases call main.ts's main() in this process (`rejected`:
 * without its early load isolate), one at a time with the console caught (tests/in_process.ts); a few of
 * each kind run as `loadlab` processes in parallel batches of 8 (each a `deno run` start-up), beside them.
 * The cases are data: tests/bad_input_attack.ts and tests/bad_input_cases.ts (the commands) and
 * tests/bad_input_fields.ts (experiment files) and tests/bad_input_scripts.ts (scripts), on the shapes of
 * tests/bad_input_shapes.ts.
 */
import { loadlabInProcess } from "./in_process.ts";
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { markedProcesses } from "./marked_processes.ts";
import { ATTACK } from "./bad_input_attack.ts";
import { OTHERS, RUN_FLAGS } from "./bad_input_cases.ts";
import { BASE, type Case, type Ctx } from "./bad_input_shapes.ts";
import { FIELDS } from "./bad_input_fields.ts";
import { SCRIPTS } from "./bad_input_scripts.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;

/** Words a line uses when it says how to fix the problem. */
const FIX =
  /e\.g\.|did you mean|must|expected|use |give |write |allowed|raise it|drop|needs|names use|no such|cannot|not a|takes no|unexpected|see loadlab|the (targets|loads|keys)[^;]* are/i;

/** What one case printed on stderr and the code it exited with. */
interface Outcome {
  code: number;
  stderr: string;
}

/** Deno's own cache, kept when a child's XDG_CACHE_HOME moves loadlab's (Deno would look there too). */
const DENO_DIR = Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME") ?? "/root"}/.cache/deno`;

/**
 * A real `loadlab` process: the command line itself, `ulimit -n`, the environment's run mark; conversions
 * cached by earlier runs are not its: loadlab's cache is the case folder's.
 */
async function inChild(args: string[], c: Case, ctx: Ctx, runId: string): Promise<Outcome> {
  const deno = [Deno.execPath(), "run", "-A", MAIN, ...args];
  const command = c.ulimit
    ? ["sh", ["-c", `ulimit -n ${c.ulimit} && exec "$@"`, "sh", ...deno]] as const
    : [deno[0], deno.slice(1)] as const;
  const out = await new Deno.Command(command[0], {
    args: [...command[1]],
    cwd: ctx.dir,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", LOADLAB_RUN_ID: runId, DENO_DIR, XDG_CACHE_HOME: `${ctx.dir}/cache` },
    signal: AbortSignal.timeout(30_000),
  }).output();
  return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
}

async function runCase(c: Case, ctx: Ctx, i: number, child: boolean): Promise<void> {
  const outDir = `${ctx.dir}/out-${i}`;
  let args = c.args?.(ctx) ?? [];
  if (c.yaml) {
    const file = `${ctx.dir}/case-${i}.yaml`;
    await Deno.writeTextFile(file, c.yaml(ctx));
    args = ["run", file, "--out-dir", outDir, ...(c.runFlags ?? [])];
  }
  const runId = `bad-input-${Deno.pid}-${i}`;
  const out = child ? await inChild(args, c, ctx, runId) : await loadlabInProcess(args, { rejected: true });
  const lines = out.stderr.split("\n").filter((l) => l.trim() !== "");
  const what = `${c.name} (${args.join(" ")}${child ? "" : ", in process"}):\n${out.stderr}`;
  assertEquals(out.code, c.code ?? 2, what);
  assertEquals(lines.length, c.names.length, `one line per problem: ${what}`);
  c.names.forEach((pattern, j) =>
    ok(pattern.test(lines[j]), `line ${j + 1} names the item ${pattern}: ${what}`)
  );
  for (const line of lines) ok(FIX.test(line), `says the fix: ${line}`);
  if (c.yaml) ok(!(await exists(outDir)), `nothing was started: ${outDir} exists for ${c.name}`);
  if (child) {
    assertEquals(markedProcesses(runId).map((p) => p.command), [], `nothing left running: ${c.name}`);
  }
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

/** Child cases at once: each is mostly a `deno run` start-up, so 8 keep two cores busy without thrashing. */
const BATCH = 8;

const ALL = [...ATTACK, ...RUN_FLAGS, ...OTHERS, ...FIELDS, ...SCRIPTS];

/**
 * Cases that run as `loadlab` processes: those under `ulimit -n`, `serve` and `site` (a case that failed
 * would serve until killed), and one of each kind of command line (a flag, an unknown command, an
 * experiment file, a k6 script). The rest call main() in this process: the same messages and exit codes
 * without a `deno` start-up each.
 */
const CHILD = new Set([
  "attack -c wrong type",
  "unknown command",
  "run --only unknown target",
  "run a k6 script with a syntax error",
]);
const inChildProcess = (c: Case) =>
  c.ulimit !== undefined || CHILD.has(c.name) || /^(serve|site) /.test(c.name);

Deno.test(`bad input: ${ALL.length} cases exit 2 with a line naming the item and the fix, before any load`, async (t) => {
  let requests = 0;
  const counter = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    requests++;
    return new Response("ok");
  });
  const dir = await Deno.makeTempDir({ prefix: "loadlab-bad-input-" });
  try {
    await Deno.writeTextFile(`${dir}/afile`, "hi\n");
    await Deno.mkdir(`${dir}/adir`);
    const url = `http://127.0.0.1:${counter.addr.port}/`;
    const ctx: Ctx = { url, dir, file: `${dir}/afile`, folder: `${dir}/adir`, base: BASE(url) };
    const children = ALL.flatMap((c, i) => inChildProcess(c) ? [i] : []);
    ok(children.length >= CHILD.size + 4, `every named child case exists: ${children.length}`);
    const results: PromiseSettledResult<void>[] = [];
    // The in-process cases, one at a time, beside the child cases' batches.
    const here = (async () => {
      for (const [i, c] of ALL.entries()) {
        if (!children.includes(i)) results[i] = await settle(runCase(c, ctx, i, false));
      }
    })();
    for (let k = 0; k < children.length; k += BATCH) {
      await Promise.all(
        children.slice(k, k + BATCH).map(async (i) =>
          results[i] = await settle(runCase(ALL[i], ctx, i, true))
        ),
      );
    }
    await here;
    for (const [i, r] of results.entries()) {
      await t.step({
        name: ALL[i].name,
        fn: () => {
          if (r.status === "rejected") throw r.reason;
        },
      });
    }
    assertEquals(requests, 0, "no request reached the counting target");
  } finally {
    await counter.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

async function settle(p: Promise<void>): Promise<PromiseSettledResult<void>> {
  return (await Promise.allSettled([p]))[0];
}
