/**
 * @module
 * The loopback sinks of the generator's warm-up: in process, HTTP/1.1 a canned 200 per head, h2c SETTINGS,
 * ACKs and HEADERS + DATA; a WebSocket run's echo in its own isolate, as its pumps block their thread.
 */
import type { AttackConfig } from "../config.ts";
import { writeAll } from "../../system/write_all.ts";
import {
  CLIENT_PREFACE,
  DATA,
  FLAG_ACK,
  FLAG_END_HEADERS,
  FLAG_END_STREAM,
  FRAME_HEADER_BYTES,
  frameFlags,
  frameLength,
  frameStreamId,
  frameType,
  HEADERS,
  PING,
  SETTINGS,
  writeFrameHeader,
  writePing,
  writeSettings,
  writeSettingsAck,
} from "../../http2/frames.ts";
import { closeQuietly } from "../../system/descriptors.ts";

/** Answers shaped like real servers' (mixed case, `Server`, `Date`, chunked): every parser path warmed. */
const CANNED: readonly Uint8Array[] = [
  "HTTP/1.1 200 OK\r\nServer: warm-up\r\nDate: Sun, 22 Nov 2026 00:00:00 GMT\r\nContent-Type: text/plain\r\n" +
  "Content-Length: 2\r\nConnection: keep-alive\r\n\r\nok",
  "HTTP/1.1 200 OK\r\ndate: Sun, 22 Nov 2026 00:00:00 GMT\r\ncontent-type: text/plain\r\n" +
  "transfer-encoding: chunked\r\nvary: Accept-Encoding\r\n\r\n2\r\nok\r\n0\r\n\r\n",
].map((text) => new TextEncoder().encode(text));
/** HPACK for `:status 200`: index 8 of the static table. */
const STATUS_200_INDEXED = 0x88;
/** What the sink reads and writes at once; an h2 frame of the burst is far smaller. */
const SINK_BUFFER_BYTES = 64 * 1024;

export interface Sink {
  url: string;
  close(): void;
}

/** A loopback TCP server answering HTTP/1.1 (`h2: false`) or h2c with prior knowledge. */
export function startSink(h2: boolean): Sink {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const open = new Set<Deno.Conn>();
  (async () => {
    for await (const conn of listener) {
      open.add(conn);
      // A connection the burst closed first ends its answer here: closed then, not left to `close`.
      (h2 ? answerH2(conn) : answerHttp1(conn)).finally(() => (open.delete(conn), closeQuietly(conn)));
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

async function answerH2(conn: Deno.Conn): Promise<void> {
  const input = new Uint8Array(SINK_BUFFER_BYTES);
  const out = new Uint8Array(SINK_BUFFER_BYTES);
  let have = 0;
  let prefaceLeft = CLIENT_PREFACE.length;
  try {
    await writeAll(conn, out.subarray(0, writeSettings(out, 0, [])));
    while (have < input.length) {
      const n = await conn.read(input.subarray(have));
      if (n === null) return;
      have += n;
      let p = Math.min(prefaceLeft, have);
      prefaceLeft -= p;
      let o = 0;
      while (have - p >= FRAME_HEADER_BYTES && have - p >= FRAME_HEADER_BYTES + frameLength(input, p)) {
        o = answerFrame(input, p, out, o);
        p += FRAME_HEADER_BYTES + frameLength(input, p);
        if (o > out.length - 64) {
          await writeAll(conn, out.subarray(0, o));
          o = 0;
        }
      }
      input.copyWithin(0, p, have);
      have -= p;
      if (o > 0) await writeAll(conn, out.subarray(0, o));
    }
  } catch {
    // The burst ended and closed its side.
  }
}

/** Writes the sink's answer to the client's frame at `p` (if any) at `out[o..]`; returns the new end. */
function answerFrame(input: Uint8Array, p: number, out: Uint8Array, o: number): number {
  const type = frameType(input, p);
  const flags = frameFlags(input, p);
  const id = frameStreamId(input, p);
  if (type === SETTINGS && (flags & FLAG_ACK) === 0) return writeSettingsAck(out, o);
  if (type === PING && (flags & FLAG_ACK) === 0) {
    return writePing(out, o, true, input, p + FRAME_HEADER_BYTES);
  }
  if ((type !== HEADERS && type !== DATA) || (flags & FLAG_END_STREAM) === 0 || id === 0) return o;
  o = writeFrameHeader(out, o, 1, HEADERS, FLAG_END_HEADERS, id);
  out[o++] = STATUS_200_INDEXED;
  o = writeFrameHeader(out, o, 2, DATA, FLAG_END_STREAM, id);
  out[o++] = 0x6f; // "o"
  out[o++] = 0x6b; // "k"
  return o;
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
