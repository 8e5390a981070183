/**
 * The shared conformance suite: every executor runs the same cases against a real `Deno.serve`
 * target (in this isolate) through real worker isolates, and must agree with what the target counted.
 * It runs once per transport (`deno`, `epoll` where Linux and FFI allow it, `io_uring` where the kernel
 * does: its open models fall back to epoll, said so in the result): a fast path keeps the slow path's
 * contract. Both transports run it over TLS too, verifying the target's throwaway certificate with
 * its CA (`Deno.startTls`; epoll: OpenSSL), and each model's agreement case once more with `insecure`
 * (`node:tls`; epoll: OpenSSL with verification off), where only the handshake's options differ. Over HTTP/2
 * it runs against the same target (Deno.serve speaks h2c with prior knowledge and h2 by ALPN), one stream per
 * connection, so every case keeps its meaning; the HTTP/1.1-only cases (Connection: close, pipelining) are
 * left out there.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { type AttackConfigInput, parseAttackConfig } from "../config.ts";
import type { LoadModel, RunResult } from "../../results/mod.ts";
import { runAttack } from "../attack.ts";
import { LOAD_MODEL_DEFS, pacingOf } from "./models/mod.ts";
import { epollBlocker, uringBlocker } from "../http/transport/choice.ts";
import { selfSignedPair } from "../../targets/tls_cert.ts";
import { keepLoadWorkers } from "../worker/load_worker.ts";

// 240 runs in one process: each isolate loads its modules once, then serves the next runs.
keepLoadWorkers();

interface CountingTarget {
  url: string;
  received: number;
  maxOpen: number;
  close(): Promise<void>;
}

/** The TLS variants' certificate, and its CA in a file for `caFile`. */
const PAIR = await selfSignedPair();
const CA_FILE = await Deno.makeTempFile({ prefix: "loadlab-conformance-ca-", suffix: ".pem" });
await Deno.writeTextFile(CA_FILE, PAIR.caPem);
globalThis.addEventListener("unload", () => Deno.removeSync(CA_FILE));

/**
 * A listener that never accepts, its queue filled so further connects hang (a blackholed host), for every
 * hanging-connect case: a full queue stays full, as nothing leaves it. Full means five connects in a row
 * that hung: on a busy machine one connect can be slow to complete and look hung, and stopping there left
 * room in the queue for the runs' own connects.
 */
const HANGING = await (async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const fillers: Deno.Conn[] = [];
  let hungInARow = 0;
  for (let i = 0; i < 2000 && hungInARow < 5; i++) {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 200);
    try {
      fillers.push(
        await Deno.connect({ hostname: "127.0.0.1", port: listener.addr.port, signal: controller.signal }),
      );
      hungInARow = 0;
    } catch {
      hungInARow++; // this connect hung: the queue may be full
    } finally {
      clearTimeout(timer);
    }
  }
  globalThis.addEventListener("unload", () => {
    fillers.forEach((c) => c.close());
    listener.close();
  });
  return { url: `http://127.0.0.1:${listener.addr.port}/` };
})();

/** Waits `ms`, or until `signal` aborts. */
function hangUntil(signal: AbortSignal, ms: number): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}

/**
 * A target that counts requests and concurrent requests; `/close` answers with Connection: close. With
 * `tls` it serves HTTPS with the throwaway certificate.
 */
function startTargetWith(tls: boolean): CountingTarget {
  let open = 0;
  // A hang outlasts any run's timeout by far, but ends when the test closes the target: the run is over
  // by then, and shutting down waits for every handler.
  const hangs = new AbortController();
  const close = () => {
    hangs.abort();
    return server.shutdown();
  };
  const t: CountingTarget = { url: "", received: 0, maxOpen: 0, close };
  const pem = tls ? { cert: PAIR.certPem, key: PAIR.keyPem } : {};
  const server = Deno.serve({ ...pem, hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    t.received++;
    open++;
    t.maxOpen = Math.max(t.maxOpen, open);
    try {
      const path = new URL(req.url).pathname;
      if (path === "/slow") await new Promise((r) => setTimeout(r, 20));
      if (path === "/hang") await hangUntil(hangs.signal, 3_000);
      if (path === "/close") return new Response("bye", { headers: { connection: "close" } });
      if (path === "/missing") return new Response("no", { status: 404 });
      return new Response("hello");
    } finally {
      open--;
    }
  });
  t.url = `${tls ? "https" : "http"}://127.0.0.1:${server.addr.port}`;
  return t;
}

/** What the shared cases vary: common fields, plus the length of the run and its size. */
interface CaseOptions {
  workers?: number;
  timeoutMs?: number;
  gracefulStopMs?: number;
  /** Length of the run (the rate model's one phase); default 400 ms. */
  runMs?: number;
  /** Connections (closed and throughput models) and the count model's requests. */
  connections?: number;
  requests?: number;
  /** Open rate (rate model), default 300/s. */
  ratePerSec?: number;
  /** The generator's warm-up before t0 (the suite turns it off but in the agreement case). */
  generatorWarmup?: boolean;
}

/** Each case's run: long enough for every model to send, reconnect and time out (a 200 ms timeout). */
const RUN_MS = 400;

/**
 * A bounded config of each model (400 ms, small rates) for the shared cases: a model's conformance
 * cases are its entry here, and a model in the table (runner/load/models/mod.ts) without one fails
 * type checking.
 */
const CASES: {
  [M in LoadModel]: (base: { url: string; intervalMs: number }, o: CaseOptions) => AttackConfigInput;
} = {
  count: (base, o) => ({
    ...base,
    model: "count",
    connections: o.connections ?? 4,
    requests: o.requests ?? 300,
    durationMs: o.runMs,
  }),
  connections: (base, o) => ({
    ...base,
    model: "connections",
    connections: o.connections ?? 4,
    durationMs: o.runMs ?? RUN_MS,
  }),
  rate: (base, o) => ({
    ...base,
    model: "rate",
    phases: [{ durationMs: o.runMs ?? RUN_MS, ratePerSec: o.ratePerSec ?? 300 }],
  }),
  // Up to the connections at once, held for the rest of the run.
  "ramping-connections": (base, o) => ({
    ...base,
    model: "ramping-connections",
    stages: [
      { durationMs: 1, target: o.connections ?? 4 },
      { durationMs: (o.runMs ?? RUN_MS) - 1, target: o.connections ?? 4 },
    ],
  }),
  throughput: (base, o) => ({
    ...base,
    model: "throughput",
    connections: o.connections ?? 4,
    ratePerSec: 300,
    durationMs: o.runMs ?? RUN_MS,
  }),
};

function configFor(model: LoadModel, url: string, opts: CaseOptions = {}): AttackConfigInput {
  const { runMs: _runMs, connections: _c, requests: _r, ratePerSec: _rate, ...common } = opts;
  return { ...CASES[model]({ url, intervalMs: 100 }, opts), ...common };
}

/**
 * A run's hooks and the time since its schedule started: a bound on a run's end counts from there, since
 * its workers take seconds to start on a busy machine (NaN, failing any bound, if it never started).
 */
function scheduleClock() {
  let startedEpochMs = NaN;
  return {
    hooks: { onStart: (startAtEpochMs: number) => void (startedEpochMs = startAtEpochMs) },
    sinceStartMs: () => performance.timeOrigin + performance.now() - startedEpochMs,
  };
}

function sumIntervals(r: RunResult): number {
  return r.intervals.reduce((sum, i) => sum + i.requests, 0);
}

const models = Object.keys(LOAD_MODEL_DEFS) as LoadModel[];

/** The transports the suite runs against; epoll is skipped (ignored, not passed) where it cannot run. */
const TRANSPORTS = ["deno", "epoll", "io_uring"] as const;
const EPOLL_BLOCKER = epollBlocker(new URL("http://127.0.0.1/"));
/** io_uring serves closed models where the kernel lets it (else the run falls back to epoll, said so). */
const URING_BLOCKER = uringBlocker(new URL("http://127.0.0.1/"), { closedModel: true });
/** epoll over TLS needs libssl 3 as well. */
const EPOLL_TLS_BLOCKER = epollBlocker(new URL("https://127.0.0.1/"));

/** `ca`: verify with the target's CA (Deno.startTls); `insecure`: skip verification (node:tls). */
type TlsVariant = "ca" | "insecure";

function suite(transport: typeof TRANSPORTS[number], tls?: TlsVariant, protocol: "http1" | "h2" = "http1") {
  const label = (tls === undefined ? transport : `${transport}+tls-${tls}`) +
    (protocol === "h2" ? "+h2" : "");
  const http1 = protocol === "http1";
  // Without verification (`insecure`) only the handshake's options differ from `ca`: every model's
  // agreement case runs, the rest (timeouts, stops, reconnects) are the `ca` rows' already.
  const full = tls !== "insecure";
  const test = (name: string, fn: () => Promise<void>, always = false) =>
    (full || always) && Deno.test({
      name: `${name} [${label}]`,
      ignore: (transport === "epoll" && (tls === undefined ? EPOLL_BLOCKER : EPOLL_TLS_BLOCKER) !== null) ||
        (transport === "io_uring" && URING_BLOCKER !== null),
      fn,
    });
  const tlsConfig = tls === "ca"
    ? { tls: { caFile: CA_FILE } }
    : tls === "insecure"
    ? { tls: { insecure: true } }
    : {};
  // The generator's warm-up runs in each model's agreement case, where the target's count would show a
  // burst that leaked to it or into the results; elsewhere it would only add time to every case.
  const parse = (input: AttackConfigInput) =>
    parseAttackConfig({ generatorWarmup: false, ...input, transport, protocol, ...tlsConfig });
  const startTarget = () => startTargetWith(tls !== undefined);

  // Ramping connections refuse HTTP/2 (a stream slot cannot close alone): its config error is its own test.
  for (const model of models.filter((m) => http1 || m !== "ramping-connections")) {
    test(`conformance ${model}: results agree with what the target received`, async () => {
      const target = startTarget();
      try {
        // Deno's TLS handshakes can take the whole 400 ms on busy cores: a second leaves room to send.
        const runMs = tls !== undefined && transport === "deno" ? 1_000 : undefined;
        const r = await runAttack(
          parse(configFor(model, target.url + "/", { workers: 2, generatorWarmup: true, runMs })),
        );
        ok(r.requests > 0, "sent something");
        assertEquals(r.requests, target.received, "every received request is reported");
        assertEquals(r.statusCodes, { "200": r.requests });
        assertEquals(r.errors, {});
        assertEquals(sumIntervals(r), r.requests, "intervals add up to the total");
        assertEquals(r.successRate, 1);
        assertEquals(r.bytesRead > 0 && r.bytesWritten > 0, true);
        assertEquals(r.model, model);
        // io_uring serves closed models; an open one falls back to epoll, the reason recorded.
        const used = transport === "io_uring" && pacingOf({ model }) !== "closed" ? "epoll" : transport;
        assertEquals(r.transport, used, "the transport asked for is the one used and recorded");
        assertEquals(r.transportFallback !== undefined, used !== transport, r.transportFallback);
        assertEquals(r.protocol, http1 ? "http1" : tls === undefined ? "h2c" : "h2");
        assertEquals(r.uncorrectedLatencyMs !== null, model === "throughput");
      } finally {
        await target.close();
      }
    }, true);

    if (http1) {
      test(`conformance ${model}: Connection: close reconnects and counts it`, async () => {
        const target = startTarget();
        try {
          const r = await runAttack(parse(configFor(model, target.url + "/close")));
          assertEquals(r.requests, target.received);
          assertEquals(r.errors, {});
          ok(r.reconnects > 0, `reconnects counted (${r.reconnects})`);
          ok(r.connects >= r.reconnects);
        } finally {
          await target.close();
        }
      });
    }

    test(`conformance ${model}: a hanging target times out, counted, bounded`, async () => {
      const target = startTarget();
      try {
        const cfg = configFor(model, target.url + "/hang", {
          timeoutMs: 200,
          gracefulStopMs: 300,
          requests: 8,
        });
        const clock = scheduleClock();
        const r = await runAttack(parse(cfg), clock.hooks);
        ok((r.errors.timeout ?? 0) > 0, `timeouts counted: ${JSON.stringify(r.errors)}`);
        for (const message of Object.keys(r.errorMessages.timeout ?? {})) {
          ok(message.startsWith("no response within 200 ms"), message);
          // epoll says what the socket had: the target never answered, so nothing had arrived (over TLS a
          // session ticket may, when the timeout is handled before its readiness on a busy machine)
          if (transport !== "deno" && http1) {
            const ticket = tls !== undefined &&
              message.startsWith("no response within 200 ms: TLS records had");
            ok(message === "no response within 200 ms: nothing had arrived" || ticket, message);
          }
        }
        assertEquals(r.statusCodes, {});
        assertEquals(r.successRate, 0);
        ok(
          clock.sinceStartMs() < 5_000,
          `ends within the run plus grace: ${clock.sinceStartMs().toFixed(0)} ms`,
        );
      } finally {
        await target.close();
      }
    });

    test(`conformance ${model}: a stop request ends the run early and keeps the result`, async () => {
      const target = startTarget();
      try {
        const controller = new AbortController();
        const cfg = configFor(model, target.url + "/slow", {
          runMs: 20_000,
          connections: 2,
          ratePerSec: 50,
          requests: 100_000,
        });
        // Stop once load is flowing, not at a fixed time: on a busy machine the workers may take seconds
        // to start, and a stop before the first request would test nothing.
        let stoppedAtMs = 0;
        const poll = setInterval(() => {
          if (target.received < 3) return;
          clearInterval(poll);
          stoppedAtMs = performance.now();
          controller.abort();
        }, 10);
        const r = await runAttack(parse(cfg), { signal: controller.signal }).finally(() =>
          clearInterval(poll)
        );
        ok(stoppedAtMs > 0, "load reached the target before the run ended");
        ok(performance.now() - stoppedAtMs < 4_000, "stopped within the graceful stop");
        ok(r.requests > 0 && r.durationSec < 10, `partial result kept (${r.requests} in ${r.durationSec}s)`);
      } finally {
        await target.close();
      }
    });
  }

  test("count: exactly n requests, status counts per status", async () => {
    const target = startTarget();
    try {
      const r = await runAttack(parse({
        url: target.url + "/missing",
        model: "count",
        requests: 1000,
        connections: 8,
        workers: 2,
      }));
      assertEquals([r.requests, target.received], [1000, 1000]);
      assertEquals(r.statusCodes, { "404": 1000 });
      assertEquals(r.successRate, 0);
    } finally {
      await target.close();
    }
  });

  test("connections: never more concurrent requests than connections", async () => {
    const target = startTarget();
    try {
      await runAttack(parse({
        url: target.url + "/slow",
        model: "connections",
        connections: 5,
        durationMs: 300,
      }));
      ok(target.maxOpen <= 5, `max concurrent ${target.maxOpen}`);
    } finally {
      await target.close();
    }
  });

  if (!http1) {
    test("h2 streams: up to connections x streams requests at once, never more, counted per connection", async () => {
      const target = startTarget();
      try {
        const r = await runAttack(parse({
          url: target.url + "/slow",
          model: "connections",
          connections: 2,
          streams: 4,
          durationMs: 400,
        }));
        ok(target.maxOpen > 2 && target.maxOpen <= 8, `max concurrent ${target.maxOpen}`);
        assertEquals([r.connects, r.streams, r.errors], [2, 4, {}]);
        ok(r.maxStreamsPerConnection! > 1 && r.maxStreamsPerConnection! <= 4, `${r.maxStreamsPerConnection}`);
      } finally {
        await target.close();
      }
    });
  }

  if (http1) {
    test("pipelining: -p 4 sends 4 requests per exchange and counts each", async () => {
      const target = startTarget();
      try {
        const r = await runAttack(parse({
          url: target.url + "/",
          model: "count",
          requests: 400,
          connections: 2,
          pipelining: 4,
        }));
        assertEquals([r.requests, target.received], [400, 400]);
        assertEquals(r.errors, {});
      } finally {
        await target.close();
      }
    });
  }

  test("rate: a connection-starved open model is server-bound, counts waiting and dropped sends", async () => {
    const target = startTarget();
    try {
      const r = await runAttack(parse({
        url: target.url + "/hang",
        model: "rate",
        // 1.5 s: a loaded machine held the first TLS handshakes' worker long enough to send 30 of a 600 ms
        // run's 60 late, as many as waited for a connection; the starved part must outweigh that start.
        phases: [{ durationMs: 1500, ratePerSec: 100 }],
        maxConnections: 2,
        lateBoundMs: 100,
        timeoutMs: 5_000,
        gracefulStopMs: 200,
      }));
      // Every connection held by the target: the sends wait for one (server-bound), not the generator.
      ok((r.serverBoundSends ?? 0) > 0, `server-bound sends ${r.serverBoundSends}`);
      ok(r.droppedSends > 0, `dropped sends ${r.droppedSends}`);
      const counts = `late ${r.lateSends}, server-bound ${r.serverBoundSends}, dropped ${r.droppedSends}`;
      // Unless the worker itself sent as many of them over 5 ms late as waited (a machine loaded past its
      // cores): then the generator held them first, and the verdict says so (a tie is the generator's).
      const late = r.lateSends >= (r.serverBoundSends ?? 0);
      assertEquals([r.serverBound, r.generatorBound], [!late, late], counts);
    } finally {
      await target.close();
    }
  });

  test("connect errors are counted by kind, and the run still ends", async () => {
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = listener.addr.port;
    listener.close(); // nothing listens there now
    const r = await runAttack(parse({
      url: `http://127.0.0.1:${port}/`,
      model: "connections",
      connections: 2,
      durationMs: 300,
    }));
    ok((r.errors.connect ?? 0) > 0, JSON.stringify(r.errors));
    assertEquals(r.requests, 0);
    const messages = Object.keys(r.errorMessages.connect ?? {});
    ok(messages.length >= 1);
    for (const message of messages) ok(/refused/i.test(message), message); // says why
  });

  for (const model of ["connections", "rate"] as const) {
    test(`${model}: a connect that hangs is aborted at the timeout, counted, and the run ends`, async () => {
      const clock = scheduleClock();
      const r = await runAttack(
        parse(configFor(model, HANGING.url, {
          timeoutMs: 300,
          // A loaded machine can start a TLS run's first connect late: room for a timeout before the stop.
          runMs: tls === undefined ? 600 : 1_200,
          gracefulStopMs: 300,
          ratePerSec: 10,
          connections: 2,
        })),
        clock.hooks,
      );
      ok(clock.sinceStartMs() < 5_000, `the run ended: ${clock.sinceStartMs().toFixed(0)} ms`);
      assertEquals(r.requests, 0);
      // A busy machine can end it with no error counted: the message says what the run did instead.
      const { errors, connects, lateSends, droppedSends, durationSec } = r;
      ok(
        (errors.connect ?? 0) > 0,
        JSON.stringify({ errors, connects, lateSends, droppedSends, durationSec }),
      );
      const messages = Object.keys(r.errorMessages.connect ?? {});
      // Each says why: a SYN the full accept queue dropped (epoll asks the kernel), or still under way.
      ok(messages.length > 0, JSON.stringify(r.errorMessages));
      for (const message of messages) {
        ok(message.startsWith("no connection within 300 ms: "), message);
        if (transport !== "deno") ok(message.includes("the SYN was not answered"), message);
      }
    });
  }
}

for (const transport of TRANSPORTS) suite(transport);
suite("deno", "ca");
suite("deno", "insecure");
suite("epoll", "ca");
suite("epoll", "insecure");
suite("deno", undefined, "h2");
suite("epoll", undefined, "h2");
suite("io_uring", undefined, "h2");
suite("deno", "ca", "h2");
suite("epoll", "ca", "h2");
