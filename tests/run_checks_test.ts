/**
 * End to end: `loadlab run` prints each run's flow checks (k6's checks) under its run line, passed and
 * failed per check, so a check that fails on every response is named, not only a lower success rate.
 */
import { ok as assert } from "node:assert/strict";
import { runLoadlab, withTempDir } from "./helpers.ts";

Deno.test("run prints a Checks block per run: each check with its passed and failed counts", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeTextFile(
      `${dir}/checks.yaml`,
      `name: checks
targets:
  app: { kind: builtin }
flows:
  - name: browse
    steps:
      - get: /json
        expect: [{ status: 404 }, { status: 200 }]
loads:
  one: { model: count, requests: 30, connections: 2 }
`,
    );
    const r = await runLoadlab(["run", `${dir}/checks.yaml`, "--out-dir", `${dir}/out`]);
    assert(r.code === 0, r.stderr + r.stdout);
    const lines = r.stdout.split("\n");
    const at = lines.findIndex((l) => l.startsWith("run 1/1 app/one "));
    assert(at >= 0 && lines[at + 1].trim() === "Checks:", r.stdout);
    assert(lines.includes("    browse / GET /json: status 404: 0.0% of 30 passed (✓ 0 / ✗ 30)"), r.stdout);
    assert(lines.includes("    browse / GET /json: status 200: 100.0% of 30 passed (✓ 30 / ✗ 0)"), r.stdout);
  });
});
