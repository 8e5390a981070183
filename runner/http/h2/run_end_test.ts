/**
 * Every HTTP/2 run closes what it opened, whatever way it ended: agreement (with the generator's warm-up),
 * a hanging target's timeouts (closed and open models), a stop request, a refused connect, a server that
 * never sends its SETTINGS and one whose GOAWAY leaves a stream draining at the end. The load runs in this
 * isolate as a worker runs it (`prepareLoad`), so its sockets are in this isolate's resource table (Deno's
 * sockets and TLS) and among its descriptors, the sockets on the target's port (epoll's, io_uring's: an
 * open model there runs on epoll); both must be back to what they were before the run. A socket left open
 * keeps a kept worker isolate from serving the next run, and its peer waiting.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { type AttackConfigInput, parseAttackConfig } from "../../config.ts";
import { prepareLoad } from "../../load/run_load.ts";
import { epollBlocker, uringBlocker } from "../transport/choice.ts";
import { selfSignedPair } from "../../../targets/tls_cert.ts";
import { startH2ScriptServer } from "../../../tests/fixtures/h2_script_server.ts";
import { FRAME, words } from "../../../tests/fixtures/h2_frames_testing.ts";
import { runtimeResources } from "../../../system/descriptors.ts";
import { socketsOn } from "../../../tests/fixtures/sockets_on.ts";

const PAIR = await selfSignedPair();
const CA_FILE = await Deno.makeTempFile({ prefix: "loadlab-h2-end-ca-", suffix: ".pem" });
await Deno.writeTextFile(CA_FILE, PAIR.caPem);
globalThis.addEventListener("unload", () => Deno.removeSync(CA_FILE));

/** A target whose `/hang` answers after 3 s or when its stream is reset; anything else at once. */
function startTarget(tls: boolean) {
  const pem = tls ? { cert: PAIR.certPem, key: PAIR.keyPem } : {};
  const server = Deno.serve({ ...pem, hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    if (new URL(req.url).pathname === "/hang") {
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, 3_000);
        req.signal.addEventListener("abort", () => resolve(clearTimeout(timer)), { once: true });
      });
    }
    return new Response("ok");
  });
  return { url: `${tls ? "https" : "http"}://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** One worker's run of `input` in this isolate, stopped after `stopAfterMs` when given. */
async function runHere(input: AttackConfigInput, stopAfterMs?: number): Promise<void> {
  const prepared = await prepareLoad({
    config: parseAttackConfig(input),
    workerIndex: 0,
    workerCount: 1,
    onSamples: () => {},
  });
  const run = prepared.start(performance.now() + 20);
  const stop = stopAfterMs === undefined ? undefined : setTimeout(() => run.stop(), stopAfterMs);
  await run.done.finally(() => clearTimeout(stop));
}

/** Runs `input`; then nothing it opened may stay open (a peer's side may close a moment after ours). */
async function assertClosesAll(input: AttackConfigInput, stopAfterMs?: number): Promise<void> {
  // Sockets to the target's port only: under `deno test --parallel` other files open their own.
  const sockets = () => socketsOn(Number(new URL(input.url).port));
  const before = new Set(runtimeResources().map(([rid]) => rid));
  const socketsBefore = sockets();
  await runHere(input, stopAfterMs);
  const left = () => runtimeResources().filter(([rid]) => !before.has(rid)).map(([, name]) => name);
  for (
    let waitedMs = 0;
    (left().length > 0 || sockets() > socketsBefore) && waitedMs < 3_000;
    waitedMs += 50
  ) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assertEquals(left(), [], "resources the run left open");
  ok(
    sockets() <= socketsBefore,
    `sockets on the target's port: ${socketsBefore} before the run, ${sockets()} after`,
  );
}

const VARIANTS = [
  { transport: "deno", tls: false },
  { transport: "deno", tls: true },
  { transport: "epoll", tls: false },
  { transport: "epoll", tls: true },
  { transport: "io_uring", tls: false },
] as const;
/** Why a variant cannot run here (epoll over TLS needs libssl 3; io_uring a ring), or null. */
const blockerOf = (transport: string, tls: boolean) =>
  transport === "deno"
    ? null
    : transport === "epoll"
    ? epollBlocker(new URL(tls ? "https://127.0.0.1/" : "http://127.0.0.1/"))
    : uringBlocker(new URL("http://127.0.0.1/"), { closedModel: true });

for (const { transport, tls } of VARIANTS) {
  const label = `${transport}${tls ? "+tls" : ""}`;
  const common = {
    transport,
    protocol: "h2",
    generatorWarmup: false,
    timeoutMs: 200,
    gracefulStopMs: 200,
    intervalMs: 100,
    ...(tls ? { tls: { caFile: CA_FILE } } : {}),
  } as const;
  const test = (name: string, fn: () => Promise<void>) =>
    Deno.test({
      name: `h2 run end [${label}]: ${name}`,
      ignore: blockerOf(transport, tls) !== null,
      fn,
    });
  const withTarget = (fn: (url: string) => Promise<void>) => async () => {
    const target = startTarget(tls);
    try {
      await fn(target.url);
    } finally {
      await target.close();
    }
  };

  test(
    "a run that agreed, after the generator's warm-up",
    withTarget(async (url) => {
      await assertClosesAll({
        ...common,
        url: `${url}/`,
        model: "connections",
        connections: 4,
        durationMs: 300,
        generatorWarmup: true,
      });
    }),
  );
  test(
    "a hanging target's timeouts, closed model",
    withTarget(async (url) => {
      await assertClosesAll({
        ...common,
        url: `${url}/hang`,
        model: "connections",
        connections: 4,
        durationMs: 400,
      });
    }),
  );
  test(
    "a hanging target's timeouts, open model",
    withTarget(async (url) => {
      await assertClosesAll({
        ...common,
        url: `${url}/hang`,
        model: "rate",
        phases: [{ durationMs: 400, ratePerSec: 50 }],
      });
    }),
  );
  test(
    "a stop request",
    withTarget(async (url) => {
      await assertClosesAll({
        ...common,
        url: `${url}/hang`,
        model: "connections",
        connections: 2,
        durationMs: 20_000,
        timeoutMs: 5_000,
      }, 300);
    }),
  );
  test("a refused connect", async () => {
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    listener.close(); // nothing listens there now
    const url = `${tls ? "https" : "http"}://127.0.0.1:${listener.addr.port}/`;
    await assertClosesAll({ ...common, url, model: "connections", connections: 2, durationMs: 300 });
  });
  if (tls) continue;
  test("a server that never sends its SETTINGS", async () => {
    const server = startH2ScriptServer({ settings: null, answer: () => {} });
    try {
      await assertClosesAll({
        ...common,
        url: `${server.origin}/`,
        model: "connections",
        connections: 2,
        durationMs: 300,
      });
    } finally {
      await server.close();
    }
  });
  test("a GOAWAY that leaves a stream draining at the end", async () => {
    // The first stream is never answered; the second brings a GOAWAY that keeps the first (last id 1).
    const server = startH2ScriptServer({
      answer: async (id, w, n) => {
        if (n === 0) return;
        if (n === 1) await w.frame(FRAME.GOAWAY, 0, 0, words(1, 0));
        else await w.ok(id);
      },
    });
    try {
      await assertClosesAll({
        ...common,
        url: `${server.origin}/`,
        model: "connections",
        connections: 1,
        streams: 2,
        durationMs: 300,
        timeoutMs: 5_000,
      });
    } finally {
      await server.close();
    }
  });
}
