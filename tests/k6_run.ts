/**
 * @module
 * `loadlab run` of a k6 script fixture (tests/fixtures/k6/), or of a script's text, against a target URL, as
 * a user runs it: a process of its own in a fresh folder, its conversions cached in one folder for the test
 * file. Read by the k6 tests that judge a whole run's output and results.json.
 */
import { dirname } from "node:path";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const cache = Deno.makeTempDirSync({ prefix: "loadlab-k6-cache-" });

/** The path of fixture `name`. */
export const k6Fixture = (name: string) => new URL(`./fixtures/k6/${name}`, import.meta.url).pathname;

/** Deno's own cache, kept when XDG_CACHE_HOME moves loadlab's (Deno would look for its cache there too). */
const denoDir = () => Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME") ?? "/root"}/.cache/deno`;

/**
 * `loadlab run FIXTURE --target app=URL [extra...]` in a fresh folder (`url` null: no `--target`): exit
 * code, output, results.json, the folder.
 */
export function runK6Fixture(name: string, url: string | null, extra: string[] = []) {
  return runK6(k6Fixture(name), url, extra);
}

/**
 * `loadlab run script.js [--target app=URL] [extra...]` of a script's `text`, written in a fresh folder (with
 * `files` beside it, by relative path), as above; `url` null gives no `--target`, `env` the process's own.
 */
export function runK6Text(
  text: string,
  url: string | null,
  extra: string[] = [],
  { env = {}, files = {}, name = "script.js" }: {
    env?: Record<string, string>;
    files?: Record<string, string>;
    name?: string;
  } = {},
) {
  const dir = Deno.makeTempDirSync({ prefix: "loadlab-k6-run-" });
  Deno.writeTextFileSync(`${dir}/${name}`, text);
  for (const [name, content] of Object.entries(files)) {
    Deno.mkdirSync(dirname(`${dir}/${name}`), { recursive: true });
    Deno.writeTextFileSync(`${dir}/${name}`, content);
  }
  return runK6(name, url, extra, dir, env);
}

async function runK6(
  script: string,
  url: string | null,
  extra: string[],
  dir = Deno.makeTempDirSync({ prefix: "loadlab-k6-run-" }),
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
  let results = null;
  try {
    results = JSON.parse(Deno.readTextFileSync(`${dir}/out/results.json`));
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  return { code: out.code, text: stdout + stderr, stdout, stderr, results, dir };
}
