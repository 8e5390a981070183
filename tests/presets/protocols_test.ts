/**
 * `loadlab run preset:protocols --quick` end to end (docs/studies/protocols.md): the built-in target with TLS
 * under the same requests over HTTP/1.1, h2 and h3, closed and open, 3 repeats each. Asserts what holds on
 * any machine: the three protocols ran, every run on the protocol its load names and every request answered;
 * h3 costs the target more CPU per request than h2 and HTTP/1.1 (its own CPU, not a speed); and the
 * findings line on it states the two figures and is reproduced, or not judged for a reason a busy machine
 * gives (a short run's noise, a generator-bound run) in words that say what to do. No speed is asserted.
 */
import assert from "node:assert/strict";
import type { ResultsFile } from "../../results/mod.ts";
import { runLoadlab } from "../helpers.ts";
import { assertStated, headlineLine } from "./headline.ts";
import { cpuMsPerRequest } from "./target_cpu.ts";

const PROTOCOLS = ["http1", "h2", "h3"];
/** The open runs a second each, not 1.5: of them only that they ran, answered, on their protocol is read. */
const SHORTER = PROTOCOLS.flatMap((p) => ["--set", `loads.open-${p}.duration=1s`]);

Deno.test({
  name: "preset:protocols --quick: one TLS origin over HTTP/1.1, h2 and h3, h3's CPU per request stated",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "loadlab_protocols_" });
    try {
      const out = await runLoadlab(["run", "preset:protocols", "--quick", ...SHORTER, "--out-dir", dir]);
      assert.equal(out.code, 0, out.stderr + out.stdout);
      const results: ResultsFile = JSON.parse(await Deno.readTextFile(`${dir}/results.json`));
      assert.deepEqual(
        [results.experiment.preset, results.experiment.quick, results.complete],
        ["protocols", true, true],
      );
      const loads = ["closed", "open"].flatMap((model) => PROTOCOLS.map((p) => `${model}-${p}`));
      assert.deepEqual(results.runs.map((r) => r.load).sort(), loads.flatMap((l) => [l, l, l]).sort());
      for (const run of results.runs) {
        assert.equal(run.protocol, run.load!.split("-")[1], `${run.name} recorded its protocol`);
        assert.ok(run.requests > 0, `${run.name} made requests`);
        assert.deepEqual(run.errors, {}, `${run.name}: ${JSON.stringify(run.errorMessages)}`);
      }
      // The target's own CPU per request over the closed runs of each protocol: h3's costs the most.
      const cpu = Object.fromEntries(
        PROTOCOLS.map((
          p,
        ) => [p, cpuMsPerRequest(results.runs.filter((r) => r.load === `closed-${p}`)) * 1000]),
      );
      console.log(`target CPU µs per request: ${JSON.stringify(cpu)}`);
      assert.ok(cpu.h3 > cpu.h2 && cpu.h3 > cpu.http1, JSON.stringify(cpu));
      const line = headlineLine(out.stdout, "Expected: load closed-h2's target CPU per request lower");
      console.log(line);
      assert.match(line, /\(builtin: [\d.,]+ µs vs [\d.,]+ µs \([+-][\d.,]+%\)/, line);
      assertStated(line, [
        /not judged: noise not judged .*run without --quick/,
        /not judged: builtin\/closed-h[23]#\d is generator-bound/,
      ]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
