import assert from "node:assert/strict";
import { loadExperiment } from "../../scenarios/load.ts";
import { planExperiment } from "../../scenarios/plan/plan.ts";
import { OutputError } from "../../system/output_file.ts";
import { assertOutputsWritable } from "./preflight.ts";

const plan = async (loads: string) =>
  planExperiment(
    await loadExperiment(`
name: sockets
targets:
  t: { url: "http://127.0.0.1:1" }
loads:
${loads}
`),
  );

Deno.test("assertOutputsWritable: a CI file or a target log under a regular file is an OutputError naming it", async () => {
  const file = await Deno.makeTempFile();
  try {
    const p = await plan("  c: { model: connections, connections: 1, duration: 1s }");
    await assertOutputsWritable(p, [["--summary", undefined], ["--junit", `${file}/junit.xml`]]).then(
      () => assert.fail("expected an OutputError"),
      (err) => {
        assert.ok(err instanceof OutputError);
        assert.match(err.message, /^--junit .*junit\.xml: cannot write/);
      },
    );
    const external = planExperiment(
      await loadExperiment(`
name: logs
targets:
  app: { kind: external, command: sh, url: "http://127.0.0.1:1", logFile: ${file}/app.log }
loads: { c: { model: connections, connections: 1, duration: 1s } }
`),
    );
    await assertOutputsWritable(external, []).then(
      () => assert.fail("expected an OutputError"),
      (err) => assert.match(String(err.message), /^targets\.app\.logFile .*app\.log: cannot write/),
    );
  } finally {
    await Deno.remove(file);
  }
});
