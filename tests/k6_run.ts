/**
 * @module
 * `loadlab run` of a k6 script fixture (tests/fixtures/k6/) against a target URL, as a user runs it: a
 * process of its own in a fresh folder, its conversions cached in one folder for the test file. Read by
 * the k6 tests that judge a whole run's output and results.json.
 */

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const cache = Deno.makeTempDirSync({ prefix: "loadlab-k6-cache-" });

/** The path of fixture `name`. */
export const k6Fixture = (name: string) => new URL(`./fixtures/k6/${name}`, import.meta.url).pathname;

/**
 * `loadlab run FIXTURE --target app=URL [extra...]` in a fresh folder: exit code, output, results.json, the
 * folder.
 */
export async function runK6Fixture(name: string, url: string, extra: string[] = []) {
  const dir = Deno.makeTempDirSync({ prefix: "loadlab-k6-run-" });
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "run", k6Fixture(name), "--target", `app=${url}`, "--out-dir", "out", ...extra],
    cwd: dir,
    env: { XDG_CACHE_HOME: cache, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  const results = JSON.parse(Deno.readTextFileSync(`${dir}/out/results.json`));
  return { code: out.code, text, results, dir };
}
