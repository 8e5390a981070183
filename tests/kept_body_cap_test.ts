/**
 * A flow step that captures from the body keeps at most `maxKeptBytes` of it (1 MiB unless set): against
 * a server whose body never ends (chunked, or a Content-Length of 1 TB) the step fails as
 * `body-too-large` once past it, the connection (HTTP/2: the stream) is closed and the run ends long
 * before its timeout, instead of keeping every byte until memory runs out. A raw TCP server over
 * HTTP/1.1 on both transports, node:http2 over h2c. Count loads of two sessions.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import * as http2 from "node:http2";
import type { FlowSpec } from "../runner/flow_spec.ts";
import { parseAttackConfig } from "../runner/config.ts";
import { runAttack } from "../runner/attack.ts";
import { requestSpec } from "./fixtures/request_spec.ts";
import type { RunResult } from "../results/mod.ts";
import { countingServer } from "./fixtures/balancer_testing.ts";
import { keepLoadWorkers } from "../runner/worker/load_worker.ts";

// Many runs in one process: each script-less run's isolates serve the next ones (see the pool).
keepLoadWorkers();

const CHUNK = new TextEncoder().encode("x".repeat(64 * 1024));
const SMALL = "id=7 " + "y".repeat(8 * 1024);

/** Writes CHUNK (chunked-framed when `chunked`) until the client goes away. */
async function endless(conn: Deno.Conn, chunked: boolean): Promise<void> {
  const frame = chunked
    ? new Uint8Array([...new TextEncoder().encode(`${CHUNK.length.toString(16)}\r\n`), ...CHUNK, 13, 10])
    : CHUNK;
  while (true) await conn.write(frame);
}

/** A raw HTTP/1.1 server: /chunked and /length send endless bodies, /small an 8 KiB one. */
function rawServer() {
  return countingServer(async (conn) => {
    const buf = new Uint8Array(16384);
    let text = "";
    while (!text.includes("\r\n\r\n")) {
      const n = await conn.read(buf);
      if (n === null) return;
      text += new TextDecoder().decode(buf.subarray(0, n));
    }
    const enc = new TextEncoder();
    if (text.startsWith("GET /small")) {
      const head = `HTTP/1.1 200 OK\r\nconnection: close\r\ncontent-length: ${SMALL.length}\r\n\r\n`;
      await conn.write(enc.encode(head + SMALL));
      return;
    }
    const chunked = text.startsWith("GET /chunked");
    const framing = chunked ? "transfer-encoding: chunked" : "content-length: 1000000000000";
    await conn.write(enc.encode(`HTTP/1.1 200 OK\r\n${framing}\r\n\r\n`));
    // Until the client closes: that is what the test waits for.
    await endless(conn, chunked);
  });
}

function flowOf(path: string, maxKeptBytes?: number): FlowSpec {
  return {
    name: "f",
    weight: 1,
    steps: [{
      request: requestSpec({ path }),
      capture: [{ regexp: "id=(\\d+)", as: "id" }],
      ...(maxKeptBytes === undefined ? {} : { maxKeptBytes }),
    }],
  };
}

async function run(url: string, flow: FlowSpec, extra: Record<string, unknown>): Promise<RunResult> {
  return await runAttack(parseAttackConfig({
    url,
    model: "count",
    requests: 2,
    connections: 1,
    timeoutMs: 30_000,
    durationMs: 60_000,
    intervalMs: 100,
    flows: [flow],
    ...extra,
  }));
}

/** The step failed both times on the cap, not on the 30 s timeout. */
function checkCapped(r: RunResult, limitBytes: number, startedMs: number): void {
  assertEquals(r.errors["body-too-large"], 2, JSON.stringify(r.errors));
  assertEquals(Object.keys(r.errorMessages["body-too-large"]), [
    `the response passed the ${limitBytes} bytes its step keeps for captures and checks (maxKeptBytes)`,
  ]);
  assertEquals([r.flows![0].sessions, r.flows![0].failed], [2, 2]);
  ok(performance.now() - startedMs < 20_000, "the run ended on the cap, well before the 30 s timeout");
}

for (const transport of ["deno", "epoll"] as const) {
  for (const path of ["/chunked", "/length"]) {
    Deno.test(`kept body [${transport}]: an endless body (${path}) fails the step at 1 MiB, counted`, async () => {
      const server = rawServer();
      try {
        const startedMs = performance.now();
        checkCapped(await run(server.url, flowOf(path), { transport }), 1024 * 1024, startedMs);
      } finally {
        await server.close();
      }
    });
  }

  Deno.test(`kept body [${transport}]: maxKeptBytes sets the cap; a body under it is captured`, async () => {
    const server = rawServer();
    try {
      const startedMs = performance.now();
      checkCapped(await run(server.url, flowOf("/small", 4096), { transport }), 4096, startedMs);
      const r = await run(server.url, flowOf("/small", 16384), { transport });
      assertEquals(
        [r.errors["body-too-large"] ?? 0, r.flows![0].completed],
        [0, 2],
        JSON.stringify(r.errors),
      );
    } finally {
      await server.close();
    }
  });

  Deno.test(`kept body [h2c, ${transport}]: an endless DATA stream fails the step at 1 MiB, counted`, async () => {
    const server = http2.createServer();
    server.on("stream", (stream) => {
      stream.respond({ ":status": 200 });
      const pump = () => {
        while (!stream.destroyed && stream.write(CHUNK));
      };
      stream.on("drain", pump);
      stream.on("error", () => {});
      pump();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      const startedMs = performance.now();
      checkCapped(
        await run(url, flowOf("/endless"), { transport, protocol: "h2c", streams: 1 }),
        1024 * 1024,
        startedMs,
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
}
