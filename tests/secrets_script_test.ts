/**
 * End to end: a session script that puts a secret-named environment variable's value (`s.env`) in a path,
 * a request name, a check name and thrown messages (a session's, teardown's), and a secret header's value
 * it sent in a check name: neither value reaches any output in clear (results.json, report.html,
 * summary.md, the terminal), each redacted as the rest of results are. The built-in target, a count of
 * sessions on loopback.
 */
import { ok } from "node:assert/strict";
import { withTempDir } from "./helpers.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const SCRIPT = new URL("./fixtures/scripts/secret_env.ts", import.meta.url).pathname;
const TOKEN = "envTok-8Hq2Lp55Vx91Rr";
const HEADER = "hdr-Zq81Xw77Lm02";

/** Every file under `dir`, recursively, as text. */
async function filesIn(dir: string): Promise<Array<[string, string]>> {
  const files: Array<[string, string]> = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) files.push(...await filesIn(path));
    else files.push([path, await Deno.readTextFile(path)]);
  }
  return files;
}

Deno.test("a script's secret env value and secret header value reach no output in clear", async () => {
  await withTempDir(async (dir) => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        MAIN,
        "run",
        SCRIPT,
        "--out-dir",
        `${dir}/out`,
        "--summary",
        `${dir}/out/summary.md`,
      ],
      env: { NO_COLOR: "1", LOADLAB_TEST_API_TOKEN: TOKEN },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const terminal = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    const files = await filesIn(`${dir}/out`);
    ok(files.some(([p]) => p.endsWith("results.json")) && files.some(([p]) => p.endsWith("summary.md")));
    // The script ran: its requests and check are in results, under redacted names.
    const results = files.find(([p]) => p.endsWith("results.json"))![1];
    ok(results.includes("GET /api/keys/[redacted 21 chars sha256:"), results.slice(0, 2000));
    ok(terminal.includes("check [redacted"), terminal);
    ok(terminal.includes("warning: teardown() failed: teardown saw [redacted"), terminal);
    for (const [where, text] of [["terminal", terminal], ...files]) {
      ok(!text.includes(TOKEN), `${where} holds the env value`);
      ok(!text.includes(HEADER), `${where} holds the header value`);
    }
  });
});
