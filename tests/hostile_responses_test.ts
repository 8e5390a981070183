/**
 * @module
 * Hostile responses end to end: the real engine (workers, connections, watchdog) against the raw-TCP
 * fixture in tests/fixtures/hostile_server.ts. Each misbehaviour must be counted as the right kind,
 * never crash or hang the run, and leave no connection open on the server's side. Loads are a handful
 * of requests on 127.0.0.1 with a short timeout.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { runAttack } from "../runner/attack.ts";
import { parseAttackConfig } from "../runner/config.ts";
import type { RunResult } from "../results/mod.ts";
import { type HostilePath, startHostileServer } from "./fixtures/hostile_server.ts";
import { epollUnavailableReason } from "../runner/http/transport/epoll/ffi.ts";
import { keepLoadWorkers } from "../runner/worker/load_worker.ts";

// Many runs in one process: each script-less run's isolates serve the next ones (see the pool).
keepLoadWorkers();

interface Case {
  path: HostilePath;
  /** Expected counts: status code -> responses, error kind -> errors. */
  statusCodes?: Record<string, number>;
  errors?: Record<string, number>;
  /** A substring of the one error message expected. */
  message?: string;
  requests?: number;
}

const N = 4;
const CASES: Case[] = [
  { path: "ok", statusCodes: { 200: N } },
  { path: "random", errors: { parse: N }, message: "bad status line" },
  { path: "bad-status", errors: { parse: N }, message: "bad status" },
  { path: "truncated", errors: { "closed-early": N } },
  { path: "hang", errors: { timeout: 2 }, requests: 2 },
  { path: "bad-chunk", errors: { parse: N }, message: "bad chunk size" },
  { path: "longer", errors: { parse: N }, message: "longer than its Content-Length" },
  { path: "close-mid-body", errors: { "closed-early": N } },
  { path: "interim", statusCodes: { 200: N } },
  { path: "stray-crlf", statusCodes: { 200: N } },
  { path: "big-body", statusCodes: { 200: 2 }, requests: 2 },
  { path: "slowloris", errors: { timeout: 2 }, requests: 2 },
  { path: "big-head", errors: { parse: N }, message: "response head larger than 65536 bytes" },
  { path: "endless", errors: { timeout: 2 }, requests: 2, message: "no complete response within" },
];

async function attack(
  url: string,
  requests: number,
  transport: Transport,
): Promise<RunResult> {
  const config = parseAttackConfig({
    url,
    model: "count",
    requests,
    connections: 2,
    timeoutMs: 1000,
    gracefulStopMs: 500,
    // Counts and error kinds are judged here, not latency: the generator's warm-up (tested on its own)
    // would only add time to each case.
    generatorWarmup: false,
    transport,
  });
  return await runAttack(config);
}

/** Every case runs on both transports (a FIN that came with the last bytes was once missed by epoll). */
type Transport = "deno" | "epoll";
const EPOLL_UNAVAILABLE = epollUnavailableReason();
if (EPOLL_UNAVAILABLE !== null) console.log(`hostile responses [epoll] skipped: ${EPOLL_UNAVAILABLE}`);

function nonZero(counts: Record<string, number | undefined>): Record<string, number> {
  return Object.fromEntries(Object.entries(counts).filter(([, n]) => (n ?? 0) > 0)) as Record<string, number>;
}

for (const transport of ["deno", "epoll"] as const) {
  for (const c of CASES) caseOn(c, transport);
}

function caseOn(c: Case, transport: Transport): void {
  const counted = JSON.stringify(c.errors ?? c.statusCodes);
  Deno.test({
    name: `hostile response /${c.path} [${transport}]: counted as ${counted}, no leak`,
    ignore: transport === "epoll" && EPOLL_UNAVAILABLE !== null,
    fn: () => checkCase(c, transport),
  });
}

async function checkCase(c: Case, transport: Transport): Promise<void> {
  const server = startHostileServer();
  try {
    const run = await attack(`${server.origin}/${c.path}`, c.requests ?? N, transport);
    assertEquals(nonZero(run.statusCodes), c.statusCodes ?? {});
    assertEquals(nonZero(run.errors), c.errors ?? {});
    const messages = Object.values(run.errorMessages).flatMap((m) => Object.keys(m));
    if (c.message) assert(messages.some((m) => m.includes(c.message!)), JSON.stringify(messages));
    assert(!messages.some((m) => m.includes("TLS")), `no TLS on http://: ${JSON.stringify(messages)}`);
    if (c.path === "big-body") assert(run.bytesRead >= 2 * 10_000_000, `${run.bytesRead} bytes read`);
    await server.drained(3000);
  } finally {
    await server.close();
  }
}

Deno.test("hostile responses: a mix with a 1 MiB head goes on; the others are answered", async () => {
  const server = startHostileServer();
  try {
    const config = parseAttackConfig({
      url: server.origin,
      model: "count",
      requests: 20,
      connections: 2,
      timeoutMs: 2000,
      maxHeaderBytes: 4096,
      // Counts and error kinds are judged here, not latency: the generator's warm-up (tested on its own)
      // would only add time to each case.
      generatorWarmup: false,
      requestMix: [{ path: "/big-head" }, { path: "/ok" }, { path: "/interim" }],
    });
    const run = await runAttack(config);
    assertEquals((run.statusCodes["200"] ?? 0) + (run.errors.parse ?? 0), 20);
    assert((run.statusCodes["200"] ?? 0) > 0 && (run.errors.parse ?? 0) > 0, JSON.stringify(run.errors));
    assertEquals(Object.keys(run.errorMessages.parse ?? {}), [
      "response head larger than 4096 bytes (--max-header-bytes)",
    ]);
    await server.drained(3000);
  } finally {
    await server.close();
  }
});
