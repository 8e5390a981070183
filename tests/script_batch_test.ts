/**
 * Requests in parallel and to a second origin, end to end on real worker isolates: `s.batch` against the
 * built-in target's `/sleep` (a batch takes about its slowest request, `perHost` holds it to rounds),
 * each request counted under its own name; a second origin (a server of the test's) named by its origin,
 * its cookies passed on in k6's order, also beside an h2c session; and the run's end cutting every request
 * of a batch in flight.
 * Loads are bounded counts or sub-second durations.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { parseAttackConfig } from "../runner/config.ts";
import { runAttack } from "../runner/attack.ts";
import { withTarget } from "./helpers.ts";
import { checksOf, withOrigins } from "./fixtures/cookie_origin.ts";

const script = (name: string) => new URL(`./fixtures/scripts/${name}`, import.meta.url).pathname;

Deno.test("s.batch: a batch takes about its slowest request, perHost holds it to rounds, each request counted", () =>
  withTarget(async (url) => {
    const run = await runAttack(parseAttackConfig({
      url,
      model: "count",
      requests: 2,
      connections: 1,
      intervalMs: 100,
      timeoutMs: 10_000,
      script: { path: script("batch_parallel.ts") },
    }));
    assertEquals(run.errorMessages ?? {}, {});
    assertEquals(checksOf(run), [
      ["a batch takes less than the sum", 2, 0],
      ["batch all 200", 2, 0],
      ["paired all 200", 2, 0],
      ["two per host take three rounds", 2, 0],
    ]);
    const steps = Object.fromEntries(run.flows![0].steps.map((s) => [s.label, [s.requests, s.errors]]));
    assertEquals(steps, { login: [2, 0], me: [2, 0], slow: [20, 0] });
    assertEquals(run.requests, 24);
  }));

Deno.test("a second origin: named by its origin, its cookies passed on in k6's order", () =>
  withOrigins(async (url, origin) => {
    const run = await runAttack(parseAttackConfig({
      url,
      model: "count",
      requests: 3,
      connections: 1,
      intervalMs: 100,
      script: { path: script("second_origin.ts"), env: { OTHER: origin } },
    }));
    assertEquals(run.errorMessages ?? {}, {});
    assertEquals(checksOf(run), [
      ["cookie not from a response in flight", 3, 0],
      ["cookie of the response before", 3, 0],
      ["other origin answers", 3, 0],
      ["target between", 3, 0],
    ]);
    const steps = Object.fromEntries(run.flows![0].steps.map((s) => [s.label, s.requests]));
    assertEquals(steps, { "GET /json": 3, [`GET ${origin}/echo`]: 9, [`GET ${origin}/set`]: 6 });
    assertEquals(run.requests, 18);
  }));

Deno.test("over h2c a second origin's requests still go beside the session's stream", () =>
  withOrigins(async (url, origin) => {
    const run = await runAttack(parseAttackConfig({
      url,
      model: "count",
      requests: 2,
      connections: 1,
      protocol: "h2c",
      intervalMs: 100,
      script: { path: script("second_origin.ts"), env: { OTHER: origin } },
    }));
    assertEquals(run.errorMessages ?? {}, {});
    for (const [name, passed, failed] of checksOf(run)) assertEquals([name, passed, failed], [name, 2, 0]);
    assertEquals(run.requests, 12);
  }));

Deno.test("the run's end cuts every request of a batch in flight", () =>
  withTarget(async (url) => {
    const run = await runAttack(parseAttackConfig({
      url,
      model: "connections",
      connections: 2,
      durationMs: 300,
      gracefulStopMs: 200,
      intervalMs: 100,
      timeoutMs: 30_000,
      script: { path: script("batch_hang.ts") },
    }));
    // Each of the 8 s requests was cut at the graceful stop, not answered.
    assertEquals([run.unfinished, run.requests], [6, 0]);
    assertEquals(run.errorMessages ?? {}, {});
  }));
