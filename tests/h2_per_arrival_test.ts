/**
 * End to end: HTTP/2 with `connection: per-arrival`, each arrival dialing its own connection (h2c
 * preface, or TLS with ALPN h2), one request on stream 1, then GOAWAY and close. Against the built-in
 * target and Debian's nginx (`listen ... http2`), plain and TLS, on both transports, in a closed model
 * (count) and an open one (rate): connects equal requests, none a reconnect, one stream per connection,
 * the protocol recorded, no error; a raw-frame server sees each connection end with GOAWAY(NO_ERROR) and the
 * client's close. Bounded loads (tens of requests, under a second each), loopback only,
 * no speed asserted.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { type AttackConfigInput, parseAttackConfig } from "../runner/config.ts";
import { runAttack } from "../runner/attack.ts";
import type { TransportKind } from "../runner/http/transport/choice.ts";
import { startTarget } from "../targets/start.ts";
import { withTempDir } from "./helpers.ts";
import { TLS_TRANSPORTS, withH2Nginx } from "./tls_fixtures.ts";
import { startH2HostileServer } from "./fixtures/h2_hostile_server.ts";
import { keepLoadWorkers } from "../runner/worker/load_worker.ts";

// Many runs in one process: each script-less run's isolates serve the next ones (see the pool).
keepLoadWorkers();

const REQUESTS = 24;

/** A closed (count) and an open (rate: 20/s for 500 ms, 10 arrivals) per-arrival load of `url`. */
function loads(url: string): Array<[AttackConfigInput, number]> {
  return [
    [{ url, model: "count", requests: REQUESTS, connections: 3 }, REQUESTS],
    [{ url, model: "rate", phases: [{ durationMs: 500, ratePerSec: 20 }] }, 10],
  ];
}

/** Runs both loads per arrival over `protocol` and checks one connection (and stream) per request. */
async function checkPerArrival(
  url: string,
  protocol: "h2" | "h2c",
  transport: TransportKind,
  caFile?: string,
): Promise<void> {
  for (const [load, expected] of loads(url)) {
    const config = parseAttackConfig({
      ...load,
      protocol,
      transport,
      connection: "per-arrival",
      timeoutMs: 5_000,
      ...(caFile ? { tls: { caFile } } : {}),
    } as AttackConfigInput);
    const r = await runAttack(config);
    const what = `${load.model} ${protocol} [${transport}] ${url}`;
    assertEquals(r.errors, {}, `${what}: ${JSON.stringify(r.errorMessages)}`);
    assertEquals([r.requests, r.statusCodes], [expected, { "200": expected }], what);
    assertEquals([r.connects, r.reconnects], [expected, 0], what);
    assertEquals([r.protocol, r.maxStreamsPerConnection], [protocol, 1], what);
    if (protocol === "h2") {
      assertEquals(r.tls?.alpn, "h2", what);
      ok(r.tlsMs && r.tlsMs.max > 0, `${what}: a handshake timed per connection`);
      // Counted where the client counts them (the epoll transport's OpenSSL; null on Deno.startTls).
      ok(r.tls?.handshakes == null || r.tls.handshakes === expected, `${what}: ${r.tls?.handshakes}`);
    }
  }
}

for (const transport of TLS_TRANSPORTS) {
  Deno.test(`h2 per-arrival [${transport}]: the built-in target over h2c and over TLS`, async () => {
    await withTempDir(async (dir) => {
      const plain = await startTarget({ kind: "builtin" }, { logDir: dir });
      const tls = await startTarget({ kind: "builtin", tls: "self-signed" }, { logDir: dir });
      try {
        await checkPerArrival(`${plain.url}/json`, "h2c", transport);
        await checkPerArrival(`${tls.url}/json`, "h2", transport, tls.caFile);
      } finally {
        await plain.stop();
        await tls.stop();
      }
    });
  });

  Deno.test(`h2 per-arrival [${transport}]: nginx over h2c and over TLS by ALPN`, async () => {
    await withH2Nginx(async (plain, tls, f) => {
      await checkPerArrival(plain.url, "h2c", transport);
      await checkPerArrival(tls.url, "h2", transport, f.ca);
    });
  });
}

for (const transport of TLS_TRANSPORTS) {
  Deno.test(`h2 per-arrival [${transport}]: each connection ends with GOAWAY NO_ERROR, then the client's close`, async () => {
    const server = startH2HostileServer("ok");
    try {
      const r = await runAttack(parseAttackConfig({
        url: `${server.origin}/`,
        model: "count",
        requests: 12,
        connections: 2,
        protocol: "h2c",
        transport,
        connection: "per-arrival",
        timeoutMs: 5_000,
      }));
      assertEquals([r.requests, r.errors, r.connects, r.reconnects], [12, {}, 12, 0]);
      // The client closed every connection itself (the server closes none in this mode).
      await server.drained(5_000);
      assertEquals([server.connections(), server.received.requests], [12, 12]);
      assertEquals(server.received.goaway, Array(12).fill(0));
      assertEquals(server.received.rstStream, []);
    } finally {
      await server.close();
    }
  });
}

Deno.test("h2 per-arrival: a server that never answers costs each arrival a timeout, and its connection is closed", async () => {
  const server = startH2HostileServer("silent");
  try {
    const r = await runAttack(parseAttackConfig({
      url: `${server.origin}/`,
      model: "count",
      requests: 4,
      connections: 2,
      protocol: "h2c",
      connection: "per-arrival",
      timeoutMs: 300,
    }));
    assertEquals([r.requests, r.errors, r.connects, r.reconnects], [0, { timeout: 4 }, 4, 0]);
    await server.drained(5_000);
    assertEquals(server.connections(), 4);
  } finally {
    await server.close();
  }
});
