/**
 * Truth table, every session of a flow ended early: its first step captures a JSON field the built-in
 * target never sends, so each session ends there and its second step never runs. Every request got a
 * 200, so success reads 100%, but the run did not measure the flow it was asked to: `no session
 * completed` flags it (exit 0, as `no success` does; `--strict` exits 6), in the run line, the summary
 * and results' verdict alike.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { runLoadlab, withTempDir } from "../helpers.ts";

const FLOW = `name: ended
targets:
  app: { kind: builtin }
flows:
  - name: f
    steps:
      - get: /json
        capture: [{ json: $.nothing.here, as: tok }]
      - get: /json?t={{ tok }}
loads:
  once: { model: count, requests: 20, connections: 2 }
`;

const LABEL = "no session completed: 20 of 20 ended early (a capture found nothing in 20)";

Deno.test("sessions ended: run flags no session completed, exit 0, exit 6 under --strict", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/f.yaml`, FLOW);
    const r = await runLoadlab(["run", `${dir}/f.yaml`, "--out-dir", `${dir}/a`, "--summary", `${dir}/s.md`]);
    assertEquals(r.code, 0, r.stderr + r.stdout);
    const line = r.stdout.split("\n").find((l) => / app\/once /.test(l));
    assert(line?.endsWith(`[${LABEL}]`), `the run line carries the verdict: ${line}`);
    const summary = await Deno.readTextFile(`${dir}/s.md`);
    assert(summary.includes(LABEL), summary);
    const strict = await runLoadlab(["run", `${dir}/f.yaml`, "--out-dir", `${dir}/b`, "--strict"]);
    assertEquals(strict.code, 6, strict.stderr + strict.stdout);
    assert(strict.stderr.includes(`is flagged: ${LABEL}`), strict.stderr);
  });
});
