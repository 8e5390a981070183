/**
 * @module
 * Shared helpers for end-to-end tests. `requireProgram` implements the rule for tests that need an
 * external program (redis-server, node, chromium, wrk): skip with a printed reason on a developer machine
 * that lacks it, but fail on CI (env CI=true), where a silently skipped suite would hide a broken setup.
 */
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
