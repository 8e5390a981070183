/**
 * Capacity search end to end: `loadlab run` with a `search:` against the fixture server of known
 * capacity (10 ms per request, at most 4 at once: 400 req/s, the excess queued). Over capacity the queue
 * grows for the whole probe: at r req/s the median request of a 3 s probe waits about (r - 400) x 1.5 s
 * / 400, over the SLO's 150 ms p50 from ~440 req/s; under capacity it waits ~10 ms. The SLO is on the
 * median, not p99, because a machine whose cores are busy with other work delays a few percent of
 * requests by 100-500 ms at any rate (measured here with both cores spinning: p99 150-480 ms at
 * 100-300 req/s, p50 under 60 ms), which would pull a p99 search far below the capacity. Tolerance:
 * the found value lies in [300, 480] req/s (the crossing at ~440 plus the 5% precision above; a 25%
 * margin below for a busy generator). With both cores spinning it found 406. Bisection exactness is
 * tested without load in scenarios/search_test.ts.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import type { ResultsFile } from "../../results/mod.ts";
import { startCapacityServer } from "../fixtures/capacity_server.ts";
import { runLoadlab } from "../helpers.ts";

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
  slo: "p50 < 150ms and success >= 99%"
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
      ok(search.value !== null && search.value >= 300 && search.value <= 480, JSON.stringify(search));
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
