/**
 * Flows and per-arrival connections end to end through real worker isolates against a real
 * `Deno.serve` target on 127.0.0.1 that counts requests per path and the connections they came on.
 * Small, bounded loads (about 1 s each); counts are asserted exactly, times only as lower bounds.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import type { FlowSpec } from "../flow_spec.ts";
import { type AttackConfigInput, parseAttackConfig } from "../config.ts";
import { runAttack } from "../attack.ts";
import { keepLoadWorkers } from "../worker/load_worker.ts";

// Many runs in one process: each script-less run's isolates serve the next ones (see the pool).
keepLoadWorkers();

interface CountingTarget {
  url: string;
  byPath: Record<string, number>;
  /** Distinct client address:port pairs seen: one per TCP connection. */
  connections: Set<string>;
  close(): Promise<void>;
}

function startTarget(): CountingTarget {
  const t: CountingTarget = { url: "", byPath: {}, connections: new Set(), close: () => server.shutdown() };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req, info) => {
    const path = new URL(req.url).pathname;
    t.byPath[path] = (t.byPath[path] ?? 0) + 1;
    t.connections.add(`${info.remoteAddr.hostname}:${info.remoteAddr.port}`);
    await req.arrayBuffer();
    return new Response("ok");
  });
  t.url = `http://127.0.0.1:${server.addr.port}`;
  return t;
}

/** `GET /a`, think 100 ms, `POST /b` with a small body. */
const twoStep: FlowSpec = {
  name: "two-step",
  weight: 1,
  steps: [
    { request: { method: "GET", path: "/a", headers: [], weight: 1 } },
    { thinkMs: 100 },
    {
      request: { method: "POST", path: "/b", headers: [], weight: 1, body: new TextEncoder().encode("x=1") },
      label: "submit",
    },
  ],
};

async function withTarget(fn: (t: CountingTarget) => Promise<void>): Promise<void> {
  const target = startTarget();
  try {
    await fn(target);
  } finally {
    await target.close();
  }
}

function rate20(
  url: string,
  extra: { workers?: number; connection?: "per-arrival" } = {},
): AttackConfigInput {
  return {
    url,
    model: "rate",
    phases: [{ durationMs: 1000, ratePerSec: 20 }],
    flows: [twoStep],
    intervalMs: 100,
    ...extra,
  };
}

Deno.test("flows, rate 20/s for 1 s: 20 sessions of two requests, every count agrees", async () => {
  await withTarget(async (target) => {
    const r = await runAttack(parseAttackConfig(rate20(target.url, { workers: 2 })));
    const [flow] = r.flows ?? [];
    assertEquals([flow.name, flow.sessions, flow.completed, flow.failed], ["two-step", 20, 20, 0]);
    assertEquals(r.requests, 40);
    assertEquals(target.byPath, { "/a": 20, "/b": 20 });
    assertEquals(flow.steps.map((s) => [s.label, s.requests, s.errors]), [["GET /a", 20, 0], [
      "submit",
      20,
      0,
    ]]);
    ok(flow.sessionMs !== null && flow.sessionMs.min >= 100, `session >= think: ${flow.sessionMs?.min}`);
    ok(flow.steps.every((s) => s.latencyMs !== null && s.latencyMs.max < flow.sessionMs!.max));
    assertEquals(r.intervals.reduce((sum, i) => sum + i.requests, 0), 40, "flow requests count in intervals");
    assertEquals(r.targetRps, 40, "requested rate counts the requests of a session");
    // Keep-alive: a connection serves the sessions after its own. How many overlap is the machine's speed
    // (about two on idle cores, 9 connections with both cores busy); one a session would be 20.
    ok(target.connections.size < flow.sessions, `keep-alive reuses connections: ${target.connections.size}`);
    // The pool opened before t0 is reported apart (preConnected); the target sees the ones used.
    ok(r.connects <= target.connections.size, `${r.connects} connects after t0`);
    ok(r.connects + (r.preConnected ?? 0) >= target.connections.size, `pool ${r.preConnected}`);
  });
});

Deno.test("per-arrival: every session opens its own connection and closes it", async () => {
  await withTarget(async (target) => {
    const r = await runAttack(parseAttackConfig(rate20(target.url, { connection: "per-arrival" })));
    assertEquals([r.flows?.[0].completed, r.requests], [20, 40]);
    assertEquals(target.connections.size, 20);
    assertEquals([r.connects, r.reconnects], [20, 0]);
    assertEquals(r.errors, {});
  });
});

Deno.test("per-arrival without flows: one connection per request in the open model", async () => {
  await withTarget(async (target) => {
    const r = await runAttack(parseAttackConfig({
      url: target.url + "/a",
      model: "rate",
      phases: [{ durationMs: 500, ratePerSec: 20 }],
      connection: "per-arrival",
    }));
    assertEquals([r.requests, target.byPath["/a"], target.connections.size, r.connects], [10, 10, 10, 10]);
    assertEquals(r.flows, undefined);
  });
});

Deno.test("closed model with flows: each connection runs sessions back to back", async () => {
  await withTarget(async (target) => {
    const r = await runAttack(parseAttackConfig({
      url: target.url,
      model: "connections",
      connections: 2,
      durationMs: 600,
      flows: [twoStep],
    }));
    const [flow] = r.flows ?? [];
    ok(flow.sessions >= 4, `two connections, ~100 ms sessions, 600 ms: ${flow.sessions} sessions`);
    assertEquals([flow.completed, flow.failed], [flow.sessions, 0]);
    assertEquals(target.byPath, { "/a": flow.sessions, "/b": flow.sessions });
    assertEquals(r.requests, 2 * flow.sessions);
    assertEquals(target.connections.size, 2);
  });
});

for (const paced of [false, true]) {
  Deno.test(`count model with flows${paced ? ", paced" : ""}: exactly n sessions`, async () => {
    await withTarget(async (target) => {
      const r = await runAttack(parseAttackConfig({
        url: target.url,
        model: "count",
        requests: 7,
        connections: 3,
        workers: 2,
        flows: [twoStep],
        ...(paced ? { ratePerSec: 20 } : {}),
      }));
      assertEquals([r.flows?.[0].sessions, r.flows?.[0].completed, r.requests], [7, 7, 14]);
      assertEquals(target.byPath, { "/a": 7, "/b": 7 });
    });
  });
}

Deno.test("weights split sessions by weight", async () => {
  await withTarget(async (target) => {
    const flow = (name: string, weight: number): FlowSpec => ({
      name,
      weight,
      steps: [{ request: { method: "GET", path: `/${name}`, headers: [], weight: 1 } }],
    });
    const r = await runAttack(parseAttackConfig({
      url: target.url,
      model: "count",
      requests: 80,
      connections: 4,
      workers: 2,
      flows: [flow("often", 3), flow("rarely", 1)],
    }));
    const [often, rarely] = r.flows ?? [];
    assertEquals(often.sessions + rarely.sessions, 80);
    ok(often.sessions >= 50 && often.sessions <= 70, `weight 3 of 4: ${often.sessions} of 80`);
    assertEquals([target.byPath["/often"], target.byPath["/rarely"]], [often.sessions, rarely.sessions]);
  });
});

Deno.test("a failing step fails its session and stops it; the error counts once", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  listener.close(); // nothing listens there: the first step cannot connect
  const r = await runAttack(parseAttackConfig({
    url: `http://127.0.0.1:${port}`,
    model: "count",
    requests: 3,
    connections: 1,
    flows: [twoStep],
  }));
  const [flow] = r.flows ?? [];
  assertEquals([flow.sessions, flow.completed, flow.failed], [3, 0, 3]);
  assertEquals(flow.steps.map((s) => [s.requests, s.errors]), [[0, 3], [0, 0]]);
  assertEquals([r.requests, r.errors.connect], [0, 3]);
});

/** `GET /a`, a long think, `GET /b`: a session that outlasts any short run. */
const longThink: FlowSpec = {
  name: "long-think",
  weight: 1,
  steps: [
    { request: { method: "GET", path: "/a", headers: [], weight: 1 } },
    { thinkMs: 10_000 },
    { request: { method: "GET", path: "/b", headers: [], weight: 1 } },
  ],
};

Deno.test("a stop request ends sessions in their think time; the run ends at once", async () => {
  await withTarget(async (target) => {
    // Stop once sessions are under way (not at a fixed time: workers start slowly on a busy machine).
    const controller = new AbortController();
    let startedAtMs = Infinity;
    const poll = setInterval(() => {
      if ((target.byPath["/a"] ?? 0) < 5) return;
      clearInterval(poll);
      startedAtMs = performance.now();
      controller.abort();
    }, 20);
    const r = await runAttack(
      parseAttackConfig({
        url: target.url,
        model: "rate",
        phases: [{ durationMs: 20_000, ratePerSec: 20 }],
        flows: [longThink],
      }),
      { signal: controller.signal },
    );
    clearInterval(poll);
    ok(performance.now() - startedAtMs < 3_000, "not held up by the think time");
    const [flow] = r.flows ?? [];
    ok(flow.sessions >= 5, `sessions started before the stop: ${flow.sessions}`);
    assertEquals([flow.completed, flow.failed, target.byPath["/b"]], [0, 0, undefined]);
    assertEquals(r.requests, flow.sessions);
  });
});

Deno.test("a think past the graceful stop is cut: neither completed nor failed", async () => {
  await withTarget(async (target) => {
    // Timed from the schedule's start (workers start for seconds on a busy machine): a think not cut is 10 s.
    let startedEpochMs = Infinity;
    const r = await runAttack(
      parseAttackConfig({
        url: target.url,
        model: "rate",
        phases: [{ durationMs: 300, ratePerSec: 10 }],
        gracefulStopMs: 300,
        flows: [longThink],
      }),
      { onStart: (startAtEpochMs) => startedEpochMs = startAtEpochMs },
    );
    const tookMs = performance.timeOrigin + performance.now() - startedEpochMs;
    ok(tookMs < 5_000, `ends at the graceful stop: ${tookMs.toFixed(0)} ms`);
    assertEquals(r.flows?.map((f) => [f.sessions, f.completed, f.failed]), [[3, 0, 0]]);
    assertEquals(r.errors, {});
  });
});

const perArrivalClosed: Array<[string, (url: string) => AttackConfigInput]> = [
  [
    "connections",
    (url) => ({ url, model: "connections", connections: 2, durationMs: 300, connection: "per-arrival" }),
  ],
  ["throughput", (url) => ({
    url,
    model: "throughput",
    ratePerSec: 40,
    connections: 2,
    durationMs: 300,
    connection: "per-arrival",
  })],
];

for (const [model, configFor] of perArrivalClosed) {
  Deno.test(`per-arrival without flows, ${model} model: a connection per request`, async () => {
    await withTarget(async (target) => {
      const r = await runAttack(parseAttackConfig(configFor(target.url + "/a")));
      ok(r.requests > 0, "sent something");
      assertEquals([target.byPath["/a"], target.connections.size, r.connects], [
        r.requests,
        r.requests,
        r.requests,
      ]);
      assertEquals([r.reconnects, r.errors], [0, {}]);
    });
  });
}
