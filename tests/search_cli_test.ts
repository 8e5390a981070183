/**
 * Capacity search end to end: `loadlab run` with a `search:` against the fixture server of known
 * capacity (10 ms per request, at most 4 at once: 400 req/s, the excess queued). Over capacity the queue
 * grows for the whole probe, so a 3 s probe at 440 req/s ends with ~120 requests waiting (~300 ms), far
 * over the SLO's 200 ms p99; under capacity requests wait ~10 ms. The found value must lie in
 * [300, 460] req/s: the upper bound is where a 3 s probe's queue crosses 200 ms plus the 5% precision,
 * the lower one leaves a 25% margin for a busy machine whose late timers or generator push a probe's p99
 * up (the server's schedule is absolute, so its capacity itself holds under load). Bisection exactness
 * is tested without load in scenarios/search_test.ts.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import type { ResultsFile } from "../results/mod.ts";
import { startCapacityServer } from "./fixtures/capacity_server.ts";
import { runLoadlab } from "./helpers.ts";

const experiment = (url: string) => `
name: capacity
targets:
  fixture: { url: "${url}" }
loads:
  steady:
    model: rate
    rate: 100
    duration: 500ms
    requests: [/]
search:
  parameter: load.rate
  load: steady
  range: [100, 1600]
  slo: "p99 < 200ms and success >= 99%"
  probe: 3s
  precision: 5%
  maxProbes: 9
`;

Deno.test({
  name: "run: capacity search lands near the fixture's 400 req/s and names the bracketing runs",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = startCapacityServer({ serviceMs: 10, slots: 4 });
    const dir = await Deno.makeTempDir({ prefix: "loadlab-search-" });
    try {
      await Deno.writeTextFile(`${dir}/exp.yaml`, experiment(server.url));
      const out = await runLoadlab(["run", `${dir}/exp.yaml`, "--out-dir", `${dir}/out`]);
      assertEquals(out.code, 0, out.stderr + out.stdout);
      const results: ResultsFile = JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`));
      const [search] = results.analysis?.searches ?? [];
      ok(search, "a search result is stored");
      ok(search.value !== null && search.value >= 300 && search.value <= 460, JSON.stringify(search));
      ok(search.high !== null && search.high.value > search.value, "bracketed from above");
      const probes = results.runs.filter((r) => r.probe);
      assertEquals(probes.length, search.probes.length);
      ok(search.probes.length <= 9 + 1, "maxProbes plus the confirming run");
      const names = new Set(probes.map((r) => r.name));
      ok(names.has(search.low!.run) && names.has(search.high.run) && names.has(search.confirmRun!));
      // Probes stay out of the repeat groups of the analysis.
      ok(results.analysis!.groups.every((g) => g.runs.every((n) => !names.has(n))));
    } finally {
      await server.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
