/**
 * @module
 * A session script checked before any target starts or load is sent (exit 2 on a problem): type-checked
 * with `deno check` when loadlab runs from source (a compiled loadlab has no type checker inside; its
 * import below still refuses a syntax error), then imported to see it loads and has a default function,
 * in an isolate of its own (script_host.ts): its top-level code cannot end loadlab (`Deno.exit`), hold
 * it (an await that never settles is refused after a minute) or grow it past its memory limit. Problems name the script's file:line. `scriptExperimentText` is the experiment `loadlab run
 * session.ts` runs: the script's `options` (what a file would say) over a default of the built-in target
 * under 10 connections for 10 s.
 */
import { basename, dirname, extname, resolve } from "node:path";
import { type HostOutcome, type ScriptExports, ScriptHost } from "../runner/script/script_host.ts";
import { UsageError } from "./usage_error.ts";
import { ScriptNames } from "../runner/script/script_names.ts";
import { EXIT } from "./exit_codes.ts";
import { memoryLimitMbBesideRuns, memoryLimitMbOf, memoryPassedText } from "../runner/worker/memory_limit.ts";
import { inGroupOfItsOwn, signalGroup } from "../targets/process_group.ts";
import type { Plan } from "../scenarios/plan_types.ts";
import { k6CacheDir } from "../runner/script/k6/k6_file.ts";

/** Scripts already type-checked by this process (`run session.ts` checks before and after planning). */
const typeChecked = new Set<string>();
/** Each script's exports as this process imported it, and the memory limit its top level ran under. */
const imported = new Map<string, { exports: ScriptExports; limitMb: number }>();

/** Whether `source` names a session script rather than an experiment file. */
export function isScriptPath(source: string): boolean {
  return /\.(ts|js|mts|mjs)$/.test(source);
}

/** How long importing a script (its top-level code) may take before it is refused. */
const IMPORT_TIMEOUT_MS = 60_000;

/**
 * Type-checks (from source) and imports the script at `path` in an isolate of its own (so its top-level
 * code cannot end loadlab), under loadlab's memory limit `memoryLimitMb` (before the plan: the one of
 * `--max-memory-mb`, else one worker's default); throws `UsageError` naming file:line, or why the import
 * never ended.
 */
export async function checkScript(
  path: string,
  memoryLimitMb = memoryLimitMbBesideRuns(),
): Promise<ScriptExports> {
  const known = imported.get(path);
  // Its top level ran within this limit already (the plan's check after the options' one).
  if (known !== undefined && known.limitMb <= memoryLimitMb) return known.exports;
  // The type check and the import each take a process or an isolate to start: they run at once.
  const [problems, opened] = await Promise.all([
    typeChecked.has(path) ? [] : typeProblems(path),
    ScriptHost.open(path, IMPORT_TIMEOUT_MS, memoryLimitMb),
  ]);
  opened.host?.close();
  if (problems.length > 0) {
    throw new UsageError(`${basename(path)} does not type-check: ${problems.slice(0, 5).join("; ")}`);
  }
  typeChecked.add(path);
  if (opened.host === null) throw new UsageError(importProblem(basename(path), opened.outcome));
  imported.set(path, { exports: opened.exports, limitMb: memoryLimitMb });
  return opened.exports;
}

/** Why importing the script `name` gave no module, in words. */
function importProblem(name: string, outcome: HostOutcome): string {
  // One bounded line, its place kept at its start and the environment's secrets redacted: a top level
  // that threw a 5 MB message printed all of it.
  if (outcome.kind === "failed") return new ScriptNames(Deno.env.toObject()).shownPlaced(outcome.message);
  if (outcome.kind === "memory") {
    return `${name}: its top level ${memoryPassedText(outcome.limitMb)} as it was imported: a script that ` +
      "keeps what it makes grows without bound";
  }
  if (outcome.kind === "exited") {
    return `${name}: its module ended its isolate (Deno.exit or process.exit at its top level): a session ` +
      "script must not exit; throw to refuse to run";
  }
  return `${name}: importing it did not end within ${IMPORT_TIMEOUT_MS / 1000} s (a top-level await that ` +
    "never settles?)";
}

/**
 * `deno check`'s errors as `file:line:col: message` (none in a compiled loadlab: no checker inside), run
 * from the script's folder so its own deno.json applies. A folder with a package.json but no installed
 * node_modules (an npm project not installed) cannot find `@types/node`: then checked again with npm
 * packages from Deno's cache (`--node-modules-dir=none`), so that is not taken for the script's error.
 */
async function typeProblems(path: string): Promise<string[]> {
  // A k6 script's conversion is JavaScript loadlab wrote: Deno checks no types in it, and its imports are
  // loadlab's own runtime, checked with loadlab.
  if (Deno.build.standalone || path.startsWith(k6CacheDir() + "/")) return [];
  let text = await denoCheck(path, []);
  if (text !== null && text.includes("Could not find a matching package")) {
    text = await denoCheck(path, ["--node-modules-dir=none"]);
  }
  return text === null ? [] : problemsOf(text, dirname(path));
}

/**
 * The output of `deno check` on `path` when it failed, else null. The check runs in a process group of
 * its own, ended with loadlab: a Ctrl-C or SIGTERM meanwhile ends the group and exits 130 or 143 at once
 * (nothing was started yet), so no checker is left running for seconds after loadlab is gone.
 */
async function denoCheck(path: string, flags: string[]): Promise<string | null> {
  const { command, args, grouped } = inGroupOfItsOwn(Deno.execPath(), ["check", "--quiet", ...flags, path]);
  const child = new Deno.Command(command, {
    args,
    cwd: dirname(path),
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const ending = endWithSignals(() => {
    if (!grouped || !signalGroup(child.pid, "SIGKILL")) child.kill("SIGKILL");
  });
  try {
    const out = await child.output();
    if (out.success) return null;
    return new TextDecoder().decode(out.stderr) + new TextDecoder().decode(out.stdout);
  } finally {
    ending.dispose();
  }
}

/** Until disposed, SIGINT and SIGTERM run `end` and exit with 130 or 143 (README's exit codes). */
function endWithSignals(end: () => void): { dispose(): void } {
  const on = (signal: Deno.Signal, code: number): [Deno.Signal, () => void] => [signal, () => {
    end();
    console.error(`loadlab: stopped (${signal}) while the session script was type-checked; nothing was run`);
    Deno.exit(code);
  }];
  const listeners = [on("SIGINT", EXIT.interrupted), on("SIGTERM", EXIT.terminated)];
  const each = (fn: (signal: Deno.Signal, listener: () => void) => void) => {
    for (const [signal, listener] of listeners) {
      try {
        fn(signal, listener);
      } catch { /* signals unsupported (SIGTERM on Windows): that signal then just exits */ }
    }
  };
  each(Deno.addSignalListener);
  return { dispose: () => each(Deno.removeSignalListener) };
}

/** Each `TS... [ERROR]: message` of `deno check`'s output with the place its `at file://...` line gives. */
export function problemsOf(text: string, folder: string): string[] {
  const problems: string[] = [];
  const lines = text.split("\n");
  for (let k = 0; k < lines.length; k++) {
    const head = /(?:TS\d+ )?\[ERROR\]: (.*)$/.exec(lines[k]) ?? /^error: (.*)$/.exec(lines[k]);
    if (head === null) continue;
    let place = "";
    for (let j = k + 1; j < Math.min(lines.length, k + 12); j++) {
      const at = /at (file:\/\/\S+?):(\d+):(\d+)/.exec(lines[j]);
      if (at === null) continue;
      const file = decodeURIComponent(new URL(at[1]).pathname);
      place = `${file.startsWith(folder + "/") ? file.slice(folder.length + 1) : file}:${at[2]}:${at[3]}: `;
      break;
    }
    if (head[1] !== "Type checking failed.") problems.push(place + head[1].trim());
  }
  return problems.length > 0 ? problems : [text.trim().split("\n")[0]];
}

/**
 * The experiment (JSON text) `loadlab run session.ts` runs, and the script as checked (under
 * `--max-memory-mb`, `maxMemoryMb`, when given).
 */
export async function scriptExperimentText(source: string, maxMemoryMb?: number): Promise<string> {
  const path = resolve(source);
  const module = await checkScript(path, memoryLimitMbBesideRuns(maxMemoryMb));
  const options = module.options ?? {};
  const experiment = {
    name: basename(path, extname(path)).replace(/[^A-Za-z0-9_.-]/g, "-"),
    targets: { app: { kind: "builtin" } },
    loads: { session: { model: "connections", connections: 10, duration: "10s" } },
    ...options,
    script: options.script ?? path,
  };
  return JSON.stringify(experiment);
}

/**
 * Checks every script the plan's runs use (once each) before any of them starts, under the memory limit
 * of the first run that uses it.
 */
export async function checkPlanScripts(plan: Plan): Promise<void> {
  const limits = new Map<string, number>();
  for (const { attack } of plan.runs) {
    if (attack.script === undefined || limits.has(attack.script.path)) continue;
    limits.set(attack.script.path, memoryLimitMbOf({ ...attack, workers: attack.workers ?? 1 }));
  }
  for (const [path, limitMb] of limits) await checkScript(path, limitMb);
}
