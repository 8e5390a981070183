/**
 * @module
 * Rows of the paced-latency truth table: a paced load (two sessions, each request after a think time, so most
 * go out while every other session sleeps and the worker has nothing to do) against the real built-in
 * target, and beside it, in the same seconds, the target's own round trip: an independent client (a plain
 * or TLS socket, the fixtures' raw HTTP/2 client, Deno's WebSocket) sending the same request on one
 * keep-alive connection at the same pace, a random 10-35 ms apart. A transport or a protocol layer that
 * reads a response only at its worker's next turn, or times it from something other than its send, shows
 * its own wait (1.5-5 ms) instead of the target's fraction of a millisecond. The bound on the difference of
 * the medians, 1 ms, sits under that wait and over what two busy loops beside it add (0.56 ms seen). A busy
 * machine only adds delay, and more to a run (its worker, the main isolate and the target share the cores)
 * than to the reference, so a row over the bound is measured again, up to
 * `ATTEMPTS` times, and the lowest excess counts: a wait of the generator's own is there on every attempt.
 */
import { ok } from "node:assert/strict";
import { type AttackConfigInput, parseAttackConfig } from "../../runner/config.ts";
import { runAttack } from "../../runner/attack.ts";
import { median } from "../../results/stats.ts";
import { H2RawClient } from "../fixtures/h2_raw_client.ts";

/** The most a paced run's p50 may exceed the reference's. */
export const BOUND_MS = 1;
/** Measurements of a row before its excess over the reference is final. */
const ATTEMPTS = 3;
/** A run's load: long enough for 40 or more paced requests from two sessions. */
const RUN_MS = 1_000;
/** The reference's bound in requests (it stops when the run ends, well before). */
const MAX_REFERENCE = 400;

/** One request and its whole answer, timed by the reference from its send. */
export type RoundTrip = () => Promise<void>;
/** A reference client: opened for a row, its round trip, and its close. */
export interface Reference {
  roundTrip: RoundTrip;
  close(): Promise<void> | void;
}

/**
 * A row: its name, what its run adds to two connections for `RUN_MS` (the url, the transport, a paced
 * script or flow; checked by the config's own schema), and the reference it is held to.
 */
export interface PacedRow {
  name: string;
  input: { url: string; transport: string; [field: string]: unknown };
  reference: () => Promise<Reference>;
}

/** The run's p50 and the reference's, measured at the same time. */
async function measure(row: PacedRow): Promise<{ p50Ms: number; refMs: number }> {
  const ref = await row.reference();
  let running = true;
  const took: number[] = [];
  const referenced = (async () => {
    while (running && took.length < MAX_REFERENCE) {
      await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 25));
      const startMs = performance.now();
      await ref.roundTrip();
      took.push(performance.now() - startMs);
    }
  })();
  const input = {
    ...row.input,
    model: "connections",
    connections: 2,
    durationMs: RUN_MS,
    generatorWarmup: false,
  };
  let run;
  try {
    run = await runAttack(parseAttackConfig(input as AttackConfigInput));
  } finally {
    // The reference ends its round trip in flight before its connection closes, also when the run failed.
    running = false;
    await referenced.finally(() => ref.close());
  }
  ok(
    run.requests >= 20 && Object.keys(run.errors).length === 0,
    `${row.name}: ${run.requests} requests, errors ${JSON.stringify(run.errors)}`,
  );
  return { p50Ms: run.latencyMs.p50, refMs: median(took) };
}

/**
 * Measures every row (again while over the bound, up to `ATTEMPTS`), logs the table with the load average,
 * and fails on each row whose lowest excess over its reference is past `BOUND_MS`.
 */
export async function checkRows(rows: readonly PacedRow[]): Promise<void> {
  const results: { text: string; overMs: number }[] = [];
  for (const row of rows) {
    let best = { text: "", overMs: Infinity };
    for (let attempt = 1; attempt <= ATTEMPTS && best.overMs > BOUND_MS; attempt++) {
      const { p50Ms, refMs } = await measure(row);
      const text = `${row.name}: p50 ${p50Ms.toFixed(3)} ms, target ${
        refMs.toFixed(3)
      } ms (attempt ${attempt})`;
      if (p50Ms - refMs < best.overMs) best = { text, overMs: p50Ms - refMs };
    }
    results.push(best);
  }
  const load = (await Deno.readTextFile("/proc/loadavg").catch(() => "?")).split(" ").slice(0, 3).join(" ");
  const table = `${results.map((r) => r.text).join("\n")}\nload average ${load}`;
  console.log(table);
  for (const r of results) ok(r.overMs <= BOUND_MS, `${r.text} (allowed +${BOUND_MS} ms)\n${table}`);
}

/** An HTTP/1.1 keep-alive connection sending `GET path` (TLS verified by `caFile` for an https: URL). */
export function h1Reference(url: string, path: string, caFile?: string): () => Promise<Reference> {
  return async () => {
    const { protocol, hostname, port } = new URL(url);
    const conn = protocol === "https:"
      ? await Deno.connectTls({ hostname, port: Number(port), caCerts: [await Deno.readTextFile(caFile!)] })
      : await Deno.connect({ hostname, port: Number(port) });
    const request = new TextEncoder().encode(`GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`);
    const buf = new Uint8Array(64 * 1024);
    return {
      roundTrip: async () => {
        await conn.write(request);
        await readResponse(conn, buf);
      },
      close: () => conn.close(),
    };
  };
}

/** Reads one whole response (head and its Content-Length body) into `buf`. */
async function readResponse(conn: Deno.Conn, buf: Uint8Array): Promise<void> {
  let got = 0;
  while (true) {
    const n = await conn.read(buf.subarray(got));
    if (n === null) throw new Error("the target closed the connection");
    got += n;
    const text = new TextDecoder().decode(buf.subarray(0, got));
    const headEnd = text.indexOf("\r\n\r\n");
    if (headEnd < 0) continue;
    const length = Number(/content-length: *(\d+)/i.exec(text)?.[1] ?? 0);
    if (got >= headEnd + 4 + length) return;
  }
}

/**
 * An HTTP/2 connection (h2c, or h2 by ALPN over TLS verified by `caFile`) sending `GET path`, or with
 * `grpc` a unary call of `grpc.path` with its length-prefixed message.
 */
export function h2Reference(
  url: string,
  path: string,
  options: { caFile?: string; grpc?: Uint8Array } = {},
): () => Promise<Reference> {
  return async () => {
    const { protocol, port } = new URL(url);
    const caCerts = protocol === "https:" ? [await Deno.readTextFile(options.caFile!)] : undefined;
    const client = await H2RawClient.open(Number(port), { caCerts });
    const fields: [string, string][] = [["content-type", "application/grpc"], ["te", "trailers"]];
    const grpc = options.grpc;
    return {
      roundTrip: async () => {
        const answer = await (grpc === undefined ? client.get(path) : client.post(path, fields, grpc));
        if (answer.status !== 200) throw new Error(`${path}: status ${answer.status}`);
      },
      close: async () => {
        client.close();
        await client.loop.catch(() => {});
      },
    };
  };
}

/** A WebSocket (Deno's own client) at `path` of `url`'s origin: each round trip a message and its echo. */
export function wsReference(url: string, path: string): () => Promise<Reference> {
  return async () => {
    const socket = new WebSocket(new URL(path, url.replace(/^http/, "ws")));
    await new Promise((resolve, reject) => {
      socket.onopen = resolve;
      socket.onerror = reject;
    });
    let answered: () => void = () => {};
    socket.onmessage = () => answered();
    return {
      roundTrip: () => {
        const echoed = new Promise<void>((resolve) => answered = resolve);
        socket.send("hello");
        return echoed;
      },
      close: async () => {
        const closed = new Promise((resolve) => socket.onclose = resolve);
        socket.close();
        await closed;
      },
    };
  };
}
