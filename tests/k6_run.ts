/**
 * @module
 * `loadlab run` of a k6 script fixture (tests/fixtures/k6/), or of a script's text, against a target URL, as
 * a user runs it: a process of its own in a fresh folder, its conversions cached in one folder for the test
 * file. Read by the k6 tests that judge a whole run's output and results.json. A run whose output is the
 * command's own (not what the script's isolates print: their console, `--http-debug`) and that sets no
 * environment may run in the test's process instead (`inProcess`, through tests/in_process.ts, which the
 * test file imports first): no `deno` start-up, its paths absolute, the process's loadlab cache. An
 * in-process run holds the event loop its pooled neighbours' targets use: for counts and verdicts, not times.
 */
import { dirname } from "node:path";
import { loadlabInProcess } from "./in_process.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const cache = Deno.makeTempDirSync({ prefix: "loadlab-k6-cache-" });

/** The path of fixture `name`. */
export const k6Fixture = (name: string) => new URL(`./fixtures/k6/${name}`, import.meta.url).pathname;

/** Deno's own cache, kept when XDG_CACHE_HOME moves loadlab's (Deno would look for its cache there too). */
const denoDir = () => Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME") ?? "/root"}/.cache/deno`;

/**
 * `loadlab run FIXTURE --target app=URL [extra...]` in a fresh folder (`url` null: no `--target`): exit
 * code, output, results.json, the folder. `extra` and `inProcess` as `runK6Text`'s.
 */
export function runK6Fixture(
  name: string,
  url: string | null,
  extra: string[] | ((dir: string) => string[]) = [],
  { inProcess = false } = {},
) {
  const dir = Deno.makeTempDirSync({ prefix: "loadlab-k6-run-" });
  const args = typeof extra === "function" ? extra(dir) : extra;
  return (inProcess ? runK6InProcess : runK6)(k6Fixture(name), url, args, dir);
}

/**
 * `loadlab run script.js [--target app=URL] [extra...]` of a script's `text`, written in a fresh folder (with
 * `files` beside it, by relative path), as above; `url` null gives no `--target`, `env` the process's own.
 * `extra` as a function is given the folder, for paths in it: an in-process run's folder is not its cwd.
 */
export function runK6Text(
  text: string,
  url: string | null,
  extra: string[] | ((dir: string) => string[]) = [],
  { env = {}, files = {}, name = "script.js", inProcess = false }: {
    env?: Record<string, string>;
    files?: Record<string, string>;
    name?: string;
    inProcess?: boolean;
  } = {},
) {
  const dir = Deno.makeTempDirSync({ prefix: "loadlab-k6-run-" });
  Deno.writeTextFileSync(`${dir}/${name}`, text);
  for (const [name, content] of Object.entries(files)) {
    Deno.mkdirSync(dirname(`${dir}/${name}`), { recursive: true });
    Deno.writeTextFileSync(`${dir}/${name}`, content);
  }
  const args = typeof extra === "function" ? extra(dir) : extra;
  if (!inProcess) return runK6(name, url, args, dir, env);
  if (Object.keys(env).length) throw new Error("an in-process run shares the environment: give env a child");
  return runK6InProcess(`${dir}/${name}`, url, args, dir);
}

async function runK6InProcess(script: string, url: string | null, extra: string[], dir: string) {
  const target = url === null ? [] : ["--target", `app=${url}`];
  const out = await loadlabInProcess(["run", script, ...target, "--out-dir", `${dir}/out`, ...extra]);
  return { ...out, text: out.stdout + out.stderr, results: readResults(dir), dir };
}

/** `dir`'s out/results.json, or null when the run wrote none. */
function readResults(dir: string) {
  try {
    return JSON.parse(Deno.readTextFileSync(`${dir}/out/results.json`));
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
    return null;
  }
}

async function runK6(
  script: string,
  url: string | null,
  extra: string[],
  dir: string,
  env: Record<string, string> = {},
) {
  const target = url === null ? [] : ["--target", `app=${url}`];
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "run", script, ...target, "--out-dir", "out", ...extra],
    cwd: dir,
    env: { ...env, XDG_CACHE_HOME: cache, NO_COLOR: "1", DENO_DIR: denoDir() },
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(90_000),
  }).output();
  const stdout = new TextDecoder().decode(out.stdout), stderr = new TextDecoder().decode(out.stderr);
  return { code: out.code, text: stdout + stderr, stdout, stderr, results: readResults(dir), dir };
}
