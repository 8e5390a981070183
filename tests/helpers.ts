/**
 * @module
 * Shared helpers for end-to-end tests. `requireProgram` implements the rule for tests that need an
 * external program (redis-server, node, chromium, wrk): skip with a printed reason on a developer machine
 * that lacks it, but fail on CI (env CI=true), where a silently skipped suite would hide a broken setup.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { passInputs } from "../runner/script/isolate_inputs.ts";
import { findProgram } from "../system/path_lookup.ts";
import { createTargetApp } from "../targets/app/app.ts";

/** True when `name` is on PATH. When missing: prints why the test is skipped, or throws when CI=true. */
export function requireProgram(name: string): boolean {
  if (findProgram(name) !== null) return true;
  if (Deno.env.get("CI") === "true") {
    throw new Error(`${name} is required on CI (CI=true) but is not on PATH: install it in the CI image`);
  }
  console.log(`skipped: ${name} is not on PATH (install it to run this test)`);
  return false;
}

const MAIN = new URL("../main.ts", import.meta.url).pathname;

/** Runs `deno run -A main.ts <args>` exactly as users and external checks do; colours off. */
export async function runLoadlab(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, ...args],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", ...env },
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/**
 * `loadlab run NAME` of a script `source` written as NAME in a fresh folder, run from there as a user does
 * (bounded at 90 s): exit code, stdout + stderr, the folder (results in `out/`), and how long it took.
 */
export async function runScriptFile(name: string, source: string) {
  const dir = Deno.makeTempDirSync({ prefix: "loadlab-script-" });
  Deno.writeTextFileSync(`${dir}/${name}`, source);
  const started = performance.now();
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "run", name, "--out-dir", "out"],
    cwd: dir,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(90_000),
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  return { code: out.code, text, dir, seconds: (performance.now() - started) / 1000 };
}

/** Runs `fn` with a fresh temporary folder that is removed afterwards, whatever happens. */
export async function withTempDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "loadlab-test-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * Runs `fn` with `vars` over the environment its in-process runs' scripts see (`__ENV`, `scriptEnv()`), as
 * `-e NAME=VALUE` gives them: the process's own environment, every parallel test file's, stays as it is.
 * Every in-process run of this file sees them while `fn` runs: not for cases pooled beside others.
 */
export async function withScriptVars<T>(vars: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  passInputs({ vars });
  try {
    return await fn();
  } finally {
    passInputs({ vars: {} });
  }
}

/**
 * The JSON `code` (a module's text, importing by absolute URL) prints, run in a `deno` process of its own
 * with `env` over this one's: for a case of a variable the process's environment holds, which every file
 * of a parallel pass shares. Deno's own cache is kept (it would follow `XDG_CACHE_HOME` or `HOME`).
 */
export async function jsonFromChild(code: string, env: Record<string, string>): Promise<unknown> {
  const denoDir = Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME") ?? "/root"}/.cache/deno`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--ext=ts", code],
    cwd: new URL("..", import.meta.url).pathname,
    env: { DENO_DIR: denoDir, ...env },
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(`the child of ${JSON.stringify(env)} exited ${out.code}`);
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

/** Runs `fn` with the built-in target app served in this process on a free loopback port. */
export async function withTarget(fn: (url: string) => Promise<void>): Promise<void> {
  const target = createTargetApp();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, target.fetch);
  try {
    await fn(`http://127.0.0.1:${server.addr.port}`);
  } finally {
    await server.shutdown();
  }
}

/**
 * How far ahead a shared `--start-at` is set: every shard process must be started and prepared by then. A
 * shard is ready a second or two after its launch on a quiet machine, and was 12.1 s after it under the
 * parallel suite at load average 14 (one that is late keeps the schedule and loses its sends due more than
 * 1 s before it was ready): shards start 6 s ahead, and when one says it started late, once more 20 s ahead.
 */
const START_LEADS_MS = [6_000, 20_000];

/** Runs `shard(i, startAt)` for each segment at once, again further ahead while one started late. */
export async function shardsOnTime(
  segments: number,
  shard: (i: number, startAt: string) => Promise<{ code: number; stderr: string }>,
  lateMsOf: (i: number) => Promise<number[]>,
) {
  for (const [attempt, leadMs] of START_LEADS_MS.entries()) {
    const startAt = new Date(Date.now() + leadMs).toISOString();
    const shards = await Promise.all(Array.from({ length: segments }, (_, i) => shard(i, startAt)));
    const last = attempt === START_LEADS_MS.length - 1;
    // A shard that read its arguments over 1 s after the start refuses it (exit 2), and one that started
    // late may fail its run (a WebSocket shard's sends all late: no response, exit 4): late as well.
    const failedLate = (s: { code: number; stderr: string }) =>
      s.code !== 0 && /in the past|after --start-at/.test(s.stderr);
    if (!last && shards.some(failedLate)) continue;
    shards.forEach((s, i) => assertEquals(s.code, 0, `shard ${i}: ${s.stderr}`));
    const late = (await Promise.all(shards.map((_, i) => lateMsOf(i)))).flat().some((ms) => ms > 0);
    if (!late || last) return { startAt, shards };
  }
  throw new Error("unreachable");
}
