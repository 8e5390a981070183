/**
 * The quick-start command: `loadlab demo` runs the embedded experiment file `scenarios/presets/demo.yaml`
 * through `loadlab run`: it starts the built-in target in its own process, runs every load model against
 * it and writes results.json and report.html, leaving no target process behind.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import type { ResultsFile } from "../results/mod.ts";

Deno.test("demo --quick runs each load model against the built-in target and writes the report", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        new URL("../main.ts", import.meta.url).pathname,
        "demo",
        "--quick",
        "--out-dir",
        dir,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assertEquals(out.code, 0, stderr);
    const results: ResultsFile = JSON.parse(await Deno.readTextFile(`${dir}/results.json`));
    assertEquals(results.runs.map((r) => r.model), ["connections", "rate", "throughput", "count"]);
    assertEquals(results.runs.map((r) => r.name), [
      "builtin/closed-c16",
      "builtin/open-ramp-spike",
      "builtin/throughput-sleep",
      "builtin/count-mix",
    ]);
    assertEquals([results.experiment.preset, results.experiment.quick, results.complete], [
      "demo",
      true,
      true,
    ]);
    assertEquals(results.runs[1].phases?.map((p) => p.name), ["ramp", "spike", "recover"]);
    for (const run of results.runs) {
      ok(run.requests > 0, `${run.name} sent requests`);
      ok((run.telemetry ?? []).length > 0, `${run.name} has target telemetry`);
    }
    const mix = results.runs[3];
    ok(mix.statusCodes["400"] > 0 && mix.statusCodes["500"] > 0, JSON.stringify(mix.statusCodes));
    const html = await Deno.readTextFile(`${dir}/report.html`);
    ok(
      html.includes("closed-c16") || html.includes("closed-c16".replace("-", "\\u002d")),
      "report names the runs",
    );
    // The target process must be gone: nothing is listening on the URL the demo used any more.
    const port = Number(new URL(results.runs[0].url).port);
    await Deno.connect({ hostname: "127.0.0.1", port }).then(
      (c) => {
        c.close();
        throw new Error(`target still listening on ${port}`);
      },
      () => {},
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
