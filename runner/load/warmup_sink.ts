/**
 * @module
 * The warm-up's loopback sinks: in process for HTTP, in an isolate of its own for WebSocket (pumps block).
 */
import type { AttackConfig } from "../config.ts";
import { writeAll } from "../../system/write_all.ts";
import { closeQuietly } from "../../system/descriptors.ts";

/** Answers shaped like real servers' (mixed case, `Server`, `Date`, chunked): every parser path warmed. */
const CANNED: readonly Uint8Array[] = [
  "HTTP/1.1 200 OK\r\nServer: warm-up\r\nDate: Sun, 22 Nov 2026 00:00:00 GMT\r\nContent-Type: text/plain\r\n" +
  "Content-Length: 2\r\nConnection: keep-alive\r\n\r\nok",
  "HTTP/1.1 200 OK\r\ndate: Sun, 22 Nov 2026 00:00:00 GMT\r\ncontent-type: text/plain\r\n" +
  "transfer-encoding: chunked\r\nvary: Accept-Encoding\r\n\r\n2\r\nok\r\n0\r\n\r\n",
].map((text) => new TextEncoder().encode(text));

export interface Sink {
  url: string;
  close(): void;
}

/** A loopback TCP server answering HTTP/1.1 (`h2: false`) or h2c with prior knowledge. */
export function startSink(h2: boolean): Sink {
  if (h2) {
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => new Response("ok"));
    return { url: `http://127.0.0.1:${server.addr.port}/`, close: () => void server.shutdown() };
  }
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const open = new Set<Deno.Conn>();
  (async () => {
    for await (const conn of listener) {
      open.add(conn);
      // A connection the burst closed first ends its answer here: closed then, not left to `close`.
      answerHttp1(conn).finally(() => (open.delete(conn), closeQuietly(conn)));
    }
  })().catch(() => {});
  return {
    url: `http://127.0.0.1:${listener.addr.port}/`,
    close() {
      closeQuietly(listener);
      for (const conn of open) closeQuietly(conn);
    },
  };
}

async function answerHttp1(conn: Deno.Conn): Promise<void> {
  const buf = new Uint8Array(16 * 1024);
  let state = 0; // bytes of "\r\n\r\n" matched so far
  let answered = 0;
  try {
    while (true) {
      const n = await conn.read(buf);
      if (n === null) return;
      let heads = 0;
      for (let i = 0; i < n; i++) {
        const b = buf[i];
        state = b === 10
          ? (state === 1 || state === 3 ? state + 1 : 0)
          : b === 13
          ? (state === 2 ? 3 : 1)
          : 0;
        if (state === 4) {
          heads++;
          state = 0;
        }
      }
      for (let k = 0; k < heads; k++) await writeAll(conn, CANNED[answered++ % CANNED.length]);
    }
  } catch {
    // The burst ended and closed its side.
  }
}

/** Longest the sink's isolate may take to start listening; past it the run starts cold. */
const SINK_START_TIMEOUT_MS = 3_000;

/** The echo for `config`'s warm-up when it sends messages (not hold); null otherwise or on failure. */
export function wsSinkFor(config: AttackConfig): Promise<Sink | null> {
  const warms = config.generatorWarmup && /^wss?:/.test(config.url) && (config.ws?.pingIntervalMs ?? 0) === 0;
  return warms ? startWsSink().catch(() => null) : Promise.resolve(null);
}

/** Starts the echo; resolves with its `ws://` URL, or rejects when it cannot listen in time. */
export function startWsSink(): Promise<Sink> {
  const worker = new Worker(new URL("./ws_warmup_sink_worker.ts", import.meta.url).href, { type: "module" });
  const close = () => worker.terminate();
  return new Promise<Sink>((resolve, reject) => {
    const fail = (err: Error) => {
      clearTimeout(timer);
      close();
      reject(err);
    };
    const timer = setTimeout(
      () => fail(new Error("the WebSocket warm-up sink did not start")),
      SINK_START_TIMEOUT_MS,
    );
    worker.onerror = (event) => {
      event.preventDefault();
      fail(new Error(`the WebSocket warm-up sink failed: ${event.message}`));
    };
    worker.onmessage = (event: MessageEvent<{ port: number }>) => {
      clearTimeout(timer);
      resolve({ url: `ws://127.0.0.1:${event.data.port}/`, close });
    };
  });
}
