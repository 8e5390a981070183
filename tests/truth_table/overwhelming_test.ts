/**
 * Truth table, an overwhelming difference: the built-in CMS page answered from fast queries (1 ms) and
 * from a pool of one connection under 30 ms queries (about 11 pages/s), under the same load of 50 arrivals
 * a second with a 2 s timeout. The slow page's queue grows until nearly every request times out, so its
 * intervals drift instead of settling; the directions must still be stated: the success shares by a
 * two-proportion test over the requests, the mean latency by batch means with the drift as spread. Only
 * a flag that makes a run's numbers loadlab's (the slow side generator-bound on a busy machine) may keep
 * a direction from being judged, and then it is named. A fast side generator-bound by its own late sends
 * only worked against the direction, so it is judged, but its stalls spread its batch means: then the mean
 * may fall short of the noise bar, said with its standard errors, and the success shares must still hold.
 */
import assert from "node:assert/strict";
import { runExperiment } from "./experiment_run.ts";

/** 150 arrivals over 3 s per variant, 2 s to answer and as long to finish: bounded in time and load. */
const EXPERIMENT = `
name: overwhelming
targets:
  fast: { kind: builtin, cms: { queryMs: 1 } }
  slow: { kind: builtin, cms: { poolSize: 1, queryMs: 30, queries: 3 } }
requests: [/home]
loads:
  high: { model: rate, rate: 50, duration: 3s, connection: per-arrival, timeout: 2s, gracefulStop: 2s }
warmup: 0s
baseline: slow
expect:
  - { metric: success, better: fast, than: slow, load: high }
  - { metric: mean, better: fast, than: slow, load: high }
`;

Deno.test({
  name: "truth table: an overwhelming difference is judged beyond noise by the test that fits each number",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    runExperiment(EXPERIMENT, [], (stdout, results) => {
      const line = (m: string) => stdout.split("\n").find((l) => l.includes(`Expected: fast's ${m}`))!;
      const flagged = /: not judged: slow\/high is generator-bound/;
      const [success, mean] = [line("success"), line("mean")];
      assert.ok(success && mean, stdout);
      const run = (v: string) => results.runs.find((r) => r.variant === v)!;
      if (!flagged.test(success)) {
        assert.match(
          success,
          /: reproduced here \(high: .* beyond noise by a two-proportion test, \d+ standard errors/,
        );
        // The fast side's own late sends say the machine stalled it: its batch means carry those stalls.
        const short =
          /: not judged: noise not judged \(by batch means, [\d.]+ standard errors .*: beyond noise needs/;
        if (!(run("fast").generatorBound && short.test(mean))) {
          assert.match(mean, /: reproduced here \(high: .* beyond noise by batch means, /);
        }
      }
      const share = (v: string) => run(v).successRate;
      assert.ok(
        share("fast") > 0.95 && share("slow") < 0.6,
        `success fast ${share("fast")}, slow ${share("slow")}`,
      );
    }),
});
