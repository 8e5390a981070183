/**
 * A script's load from `loadlab run`'s command line: k6's flags and Locust's `-c --ramp-up -d` read into
 * one shape, the session load they give a TypeScript script, and their problems named by flag.
 */
import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import { parseRunArgs } from "./run_args.ts";
import { sessionLoadOf } from "./script_load_flags.ts";

const load = (...argv: string[]) => parseRunArgs(["session.ts", ...argv]).scriptLoad;

Deno.test("k6's flags and Locust's: users, duration, iterations, stages, spawn rate, variables", () => {
  assertEquals(load(), undefined);
  assertEquals(load("--vus", "50", "--duration", "30s", "-e", "BASE=http://127.0.0.1:8080", "-e", "A=b=c"), {
    vus: 50,
    durationMs: 30_000,
    iterations: undefined,
    stages: undefined,
    env: { BASE: "http://127.0.0.1:8080", A: "b=c" },
  });
  assertEquals(load("-c", "50", "--ramp-up", "10/s", "-d", "20s")?.stages, [
    { durationMs: 5_000, target: 50 },
    { durationMs: 15_000, target: 50 },
  ]);
  assertEquals(load("--stages", "10s:5,5s:0")?.stages, [
    { durationMs: 10_000, target: 5 },
    { durationMs: 5_000, target: 0 },
  ]);
});

Deno.test("the session load the flags give a TypeScript script", () => {
  assertEquals(sessionLoadOf(load("-c", "50", "-d", "20s")!), {
    model: "connections",
    connections: 50,
    duration: "20000ms",
  });
  assertEquals(sessionLoadOf(load("--iterations", "100", "-c", "4")!), {
    model: "count",
    requests: 100,
    connections: 4,
  });
  assertEquals(sessionLoadOf(load("-c", "50", "--ramp-up", "10/s", "-d", "20s")!), {
    model: "connections",
    stages: [{ duration: "5000ms", target: 50 }, { duration: "15000ms", target: 50 }],
  });
});

Deno.test("script load flags' problems name the flag", () => {
  throws(() => load("--vus", "0"), /^UsageError: --vus "0": a whole number >= 1/);
  throws(() => load("--ramp-up", "10/s"), /^UsageError: --ramp-up is a spawn rate up to -c users: give -c N/);
  throws(() => load("-e", "NOVALUE"), /^UsageError: -e "NOVALUE": write KEY=VALUE/);
  throws(
    () => load("-c", "5", "--stages", "1s:1", "--ramp-up", "1/s"),
    /give --stages or --ramp-up, not both/,
  );
});
