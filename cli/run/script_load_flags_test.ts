/**
 * A script's load from `loadlab run`'s command line: k6's flags and Locust's `-c --ramp-up -d` read into
 * one shape, the session load they give a TypeScript script, and their problems named by flag.
 */
import { deepStrictEqual as assertEquals, rejects } from "node:assert/strict";
import { parseRunArgs } from "./args.ts";
import { sessionLoadOf, withK6Flags } from "./script_load_flags.ts";
import { jsonFromChild } from "../../tests/helpers.ts";

const ARGS = new URL("./args.ts", import.meta.url).href;
const load = async (...argv: string[]) => (await parseRunArgs(["session.ts", ...argv])).scriptLoad;

Deno.test("k6's flags and Locust's: users, duration, iterations, stages, spawn rate, variables", async () => {
  assertEquals(await load(), undefined);
  assertEquals(
    await load("--vus", "50", "--duration", "30s", "-e", "BASE=http://127.0.0.1:8080", "-e", "A=b=c"),
    {
      vus: 50,
      durationMs: 30_000,
      iterations: undefined,
      stages: undefined,
      env: { BASE: "http://127.0.0.1:8080", A: "b=c" },
    },
  );
  assertEquals((await load("-c", "50", "--ramp-up", "10/s", "-d", "20s"))?.stages, [
    { durationMs: 5_000, target: 50 },
    { durationMs: 15_000, target: 50 },
  ]);
  assertEquals((await load("--stages", "10s:5,5s:0"))?.stages, [
    { durationMs: 10_000, target: 5 },
    { durationMs: 5_000, target: 0 },
  ]);
});

Deno.test("a locustfile's users spawn as Locust spawns them: floor(r) a batch, the first at 0, 1/s unless -r", async () => {
  const locust = async (...argv: string[]) =>
    (await parseRunArgs(["locustfile.py", ...argv])).scriptLoad?.stages;
  assertEquals(await locust("-u", "60", "-r", "60", "-t", "15s"), [
    { durationMs: 1, target: 60 },
    { durationMs: 14_999, target: 60 },
  ]);
  assertEquals(await locust("-u", "3", "-t", "2.5s"), [
    { durationMs: 1, target: 1 },
    { durationMs: 999, target: 1 },
    { durationMs: 1, target: 2 },
    { durationMs: 999, target: 2 },
    { durationMs: 1, target: 3 },
    { durationMs: 499, target: 3 },
  ]);
  // 2.5/s: batches of 2 every 0.8 s; -t ends the ramp (Locust spawns no more once stopped).
  assertEquals(await locust("-u", "9", "-r", "2.5", "-t", "2s"), [
    { durationMs: 1, target: 2 },
    { durationMs: 799, target: 2 },
    { durationMs: 1, target: 4 },
    { durationMs: 799, target: 4 },
    { durationMs: 1, target: 6 },
    { durationMs: 399, target: 6 },
  ]);
  assertEquals(await locust("-u", "1", "-r", "5", "-t", "2s"), undefined);
  // Past the stages' cap the ramp after the first batch is a line at the rate.
  assertEquals(await locust("-u", "2000", "-r", "1", "-t", "30m"), [
    { durationMs: 1, target: 1 },
    { durationMs: 1_799_999, target: 1800 },
  ]);
});

Deno.test("the session load the flags give a TypeScript script", async () => {
  assertEquals(sessionLoadOf((await load("-c", "50", "-d", "20s"))!), {
    model: "connections",
    connections: 50,
    duration: "20000ms",
  });
  assertEquals(sessionLoadOf((await load("--iterations", "100", "-c", "4"))!), {
    model: "count",
    requests: 100,
    connections: 4,
  });
  assertEquals(sessionLoadOf((await load("-i", "9", "-d", "2s", "--max-duration", "1m"))!), {
    model: "count",
    requests: 9,
    connections: 1,
    duration: "2000ms",
    maxDuration: "60000ms",
  });
  assertEquals(sessionLoadOf((await load("-c", "50", "--ramp-up", "10/s", "-d", "20s"))!), {
    model: "connections",
    stages: [{ duration: "5000ms", target: 50 }, { duration: "15000ms", target: 50 }],
  });
});

Deno.test("the flags' load keeps how the script's loads all send: a gRPC session's h2c and streams", async () => {
  const h2c = { model: "connections", connections: 20, duration: "30s", protocol: "h2c", streams: 4 };
  assertEquals(sessionLoadOf((await load("-d", "2s"))!, { users: h2c, more: { ...h2c, connections: 2 } }), {
    model: "connections",
    connections: undefined,
    duration: "2000ms",
    protocol: "h2c",
    streams: 4,
  });
  // Loads that differ in it leave it to the flags' load's default.
  assertEquals(sessionLoadOf((await load("-i", "5"))!, { a: h2c, b: { model: "connections" } }), {
    model: "count",
    requests: 5,
    connections: 1,
  });
});

Deno.test("script load flags' problems name the flag", async () => {
  await rejects(load("--vus", "0"), /^UsageError: --vus "0": must be a whole number >= 1, e.g. --vus 50/);
  await rejects(
    load("--ramp-up", "10/s"),
    /^UsageError: --ramp-up is a spawn rate up to a number of users: give -c N/,
  );
  // Locust's spellings are the same flags, named as typed.
  await rejects(
    load("-r", "10"),
    /^UsageError: -r is a spawn rate up to a number of users: give -c N \(Locust's -u N\)/,
  );
  assertEquals((await load("-u", "4", "-r", "4", "-t", "3s"))?.stages, [
    { durationMs: 1000, target: 4 },
    { durationMs: 2000, target: 4 },
  ]);
  await rejects(load("-e", "1BAD=x"), /^UsageError: -e "1BAD=x": 1BAD is not a variable's name, e.g./);
  await rejects(
    load("-c", "5", "--stages", "1s:1", "--ramp-up", "1/s"),
    /give --stages or --ramp-up, not both/,
  );
});

Deno.test("k6's spellings: -u, -i, -s/--stage (repeatable, k6's D:N), and its flags for a k6 script", async () => {
  const a = (await load("-u", "5", "-i", "20", "-s", "10s:5", "--stage", "5s:0,1s:1"))!;
  assertEquals([a.vus, a.iterations], [5, 20]);
  assertEquals(a.stages, [
    { durationMs: 10_000, target: 5 },
    { durationMs: 5_000, target: 0 },
    { durationMs: 1_000, target: 1 },
  ]);
  assertEquals(
    (await load(
      "--tag",
      "env=staging",
      "--tag",
      "team=a=b",
      "--no-thresholds",
      "-q",
      "--summary-export",
      "s.json",
      "--summary-trend-stats",
      "avg,p(95),p(99.9),count",
      "--http-debug=full",
    ))?.k6,
    {
      tags: { env: "staging", team: "a=b" },
      noThresholds: true,
      quiet: true,
      summaryExport: "s.json",
      options: { summaryTrendStats: ["avg", "p(95)", "p(99.9)", "count"] },
      httpDebug: "full",
    },
  );
  assertEquals((await load("--http-debug"))?.k6, { httpDebug: "headers" });
  assertEquals((await load("--no-vu-connection-reuse"))?.k6, { options: { noVUConnectionReuse: true } });
  await rejects(
    load("--tag", "novalue"),
    /^UsageError: --tag "novalue": write NAME=VALUE, e.g. --tag env=staging/,
  );
  await rejects(load("--http-debug=all"), /^UsageError: --http-debug "all": must be one of headers, full/);
  await rejects(
    load("--summary-trend-stats", "avg,p95"),
    /^UsageError: --summary-trend-stats "avg,p95": "p95"/,
  );
});

Deno.test("an unknown flag names the closest known one", async () => {
  await rejects(
    load("--vu", "5"),
    /^UsageError: --vu: unknown flag; did you mean --vus\? \(loadlab run --help\)$/,
  );
  await rejects(load("--stgae", "1s:1"), /did you mean --stage\?/);
  await rejects(load("--bogus"), /^UsageError: --bogus: unknown flag; see loadlab run --help$/);
});

Deno.test("-e NAME without a value is the empty string, as k6's", async () => {
  assertEquals((await load("-e", "DEBUG", "-e", "A="))?.env, { DEBUG: "", A: "" });
});

Deno.test("k6's tiers of options: one giving duration, iterations, stages or scenarios drops the lower's", () => {
  const scenarios = { s: { executor: "per-vu-iterations" } };
  const file = (config: Record<string, unknown>) => ({ config });
  assertEquals(withK6Flags({ duration: "1s" }, file({ iterations: 3, vus: 2 })), { vus: 2, duration: "1s" });
  assertEquals(withK6Flags({ iterations: 9 }, file({ scenarios, vus: 2 })), { vus: 2, iterations: 9 });
  assertEquals(withK6Flags({ vus: 1, iterations: 3 }, undefined, { duration: "1s" }), {
    vus: 1,
    duration: "1s",
  });
  assertEquals(withK6Flags({ stages: [] }, undefined, { iterations: 4 }), { iterations: 4 });
  // VUs are not how the load runs: beside the scenarios, which run as written.
  assertEquals(withK6Flags({ scenarios }, undefined, { vus: 4 }), { scenarios, vus: 4 });
  assertEquals(withK6Flags({ vus: 1 }, file({ duration: "1s" })), { duration: "1s", vus: 1 });
});

Deno.test("K6_ITERATIONS, K6_DURATION, K6_STAGES give way whole to a duration, iterations or stages flag", async () => {
  const dir = Deno.makeTempDirSync();
  const script = `${dir}/t.js`;
  Deno.writeTextFileSync(script, 'import http from "k6/http";\nexport default function () {}\n');
  try {
    // Parsed in a process of its own: the variables are that process's, not every parallel test file's.
    const parsed = await jsonFromChild(
      `import { parseRunArgs } from "${ARGS}";
const a = (await parseRunArgs(["${script}", "-d", "1s"])).scriptLoad;
const b = (await parseRunArgs(["${script}"])).scriptLoad;
console.log(JSON.stringify([a?.iterations ?? null, a?.durationMs, a?.vus, b?.iterations]));`,
      { K6_ITERATIONS: "3", K6_VUS: "2" },
    );
    assertEquals(parsed, [null, 1000, 2, 3]);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("--include-system-env-vars=false (or K6_INCLUDE_SYSTEM_ENV_VARS) keeps the system's variables out", async () => {
  assertEquals((await load("--include-system-env-vars"))?.k6?.systemEnv, undefined);
  assertEquals((await load("--include-system-env-vars=true"))?.k6?.systemEnv, undefined);
  assertEquals((await load("--include-system-env-vars=false", "-e", "A=1"))?.k6, { systemEnv: false });
  const dir = Deno.makeTempDirSync();
  const script = `${dir}/t.js`;
  Deno.writeTextFileSync(script, 'import http from "k6/http";\nexport default function () {}\n');
  try {
    const parsed = await jsonFromChild(
      `import { parseRunArgs } from "${ARGS}";
console.log(JSON.stringify((await parseRunArgs(["${script}"])).scriptLoad?.k6));`,
      { K6_INCLUDE_SYSTEM_ENV_VARS: "false" },
    );
    assertEquals(parsed, { systemEnv: false });
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
