/**
 * A k6 script's call that fails deep in loadlab's engine keeps the script's `file:line` in the run's
 * errors, through `loadlab run` of a real k6 script against the built-in target: a header name that is
 * no token, sent by `http.batch`, is refused 17 frames below the script's call, past the 10 frames V8
 * keeps by default, and was counted without its line. One iteration each, the process bounded in time.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { withTarget } from "./helpers.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const cache = Deno.makeTempDirSync({ prefix: "loadlab-k6-lines-cache-" });

/** `loadlab run script.js` of `text` against `url`: exit code, output, the run's script errors. */
async function runScript(text: string, url: string) {
  const dir = Deno.makeTempDirSync({ prefix: "loadlab-k6-lines-" });
  Deno.writeTextFileSync(`${dir}/script.js`, text);
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "run", "script.js", "--target", `app=${url}`, "--out-dir", "out"],
    cwd: dir,
    env: { XDG_CACHE_HOME: cache, NO_COLOR: "1", DENO_DIR: denoDir() },
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(60_000),
  }).output();
  const output = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  const run = JSON.parse(Deno.readTextFileSync(`${dir}/out/results.json`)).runs[0];
  return { text: output, messages: Object.keys(run.errorMessages?.script ?? {}) };
}

/** Deno's own cache, kept when XDG_CACHE_HOME moves loadlab's (Deno would look for its cache there too). */
function denoDir(): string {
  return Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME") ?? "/root"}/.cache/deno`;
}

Deno.test("a k6 call refused deep in the engine (http.batch's bad header) fails at the script's line", () =>
  withTarget(async (url) => {
    const { text, messages } = await runScript(
      `import http from "k6/http";
export const options = { iterations: 2 };
function page(headers) {
  return http.batch([["GET", "http://app.test/", null, { headers }]]);
}
export default function () {
  page({ "bad name": "v" });
}
`,
      url,
    );
    assertEquals(messages.length, 1, text);
    ok(messages[0].startsWith('header bad name: header name "bad name" is not a token'), messages[0]);
    ok(messages[0].endsWith("(script.js:4)"), messages[0]);
  }));
