/**
 * End to end: strings from files and from targets reach the terminal without their escape sequences.
 * A crafted results.json under `--resume` and a target that prints escape codes before dying must not
 * retitle the window, clear the screen or rewrite lines; the text around them is still shown.
 */
import { loadlabInProcess } from "./in_process.ts";
import { deepStrictEqual as assertEquals, match as assertMatch, ok } from "node:assert/strict";
import { withTempDir } from "./helpers.ts";
import { makeSingleAttack } from "./fixtures/make_results.ts";
import { freePort } from "../system/ports.ts";

// deno-lint-ignore no-control-regex -- looking for control characters is the point
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

Deno.test("--resume: an experiment name with escape sequences in results.json is printed without them", async () => {
  await withTempDir(async (dir) => {
    const crafted = makeSingleAttack();
    crafted.experiment.name = "evil\x1b]0;pwned\x07\x1b[2J\x1b[1;1H\x9b31m\rname";
    await Deno.mkdir(`${dir}/out`);
    await Deno.writeTextFile(`${dir}/out/results.json`, JSON.stringify(crafted));
    await Deno.writeTextFile(
      `${dir}/e.yaml`,
      `name: mine\ntargets: { t: { url: "http://127.0.0.1:${freePort()}" } }\n` +
        `loads: { one: { model: count, requests: 1 } }\n`,
    );
    const r = await loadlabInProcess(["run", `${dir}/e.yaml`, "--out-dir", `${dir}/out`, "--resume"]);
    assertEquals(r.code, 2, r.stderr);
    assertMatch(r.stderr, /holds experiment "evilname"/);
    ok(!CONTROL.test(r.stderr.replaceAll("\n", "")), JSON.stringify(r.stderr));
  });
});

Deno.test("a target's output tail shown after it died carries no escape sequences", async () => {
  await withTempDir(async (dir) => {
    const port = freePort();
    await Deno.writeTextFile(
      `${dir}/e.yaml`,
      `name: dies
targets:
  t:
    kind: external
    command: sh
    args: ["-c", "printf 'before\\\\033]0;pwned\\\\007\\\\033[2J\\\\033[Aafter\\\\n' >&2; exit 7"]
    url: http://127.0.0.1:${port}
loads: { one: { model: count, requests: 1 } }
`,
    );
    const r = await loadlabInProcess(["run", `${dir}/e.yaml`, "--out-dir", `${dir}/out`]);
    assertEquals(r.code, 3, r.stderr);
    assertMatch(r.stderr, /beforeafter/);
    ok(!CONTROL.test(r.stderr.replaceAll("\n", "")), JSON.stringify(r.stderr));
  });
});
