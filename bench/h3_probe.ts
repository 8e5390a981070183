/**
 * @module
 * A probe of QUIC in Deno for HTTP/3 load, before any engine room: `Deno.connectQuic` (unstable:
 * `--unstable-net`) to bench/h3_server.py (aioquic) or bench/h3_deno_server.ts (`--server deno`), started
 * here with a throwaway certificate from openssl; the h3 setup (our control stream with SETTINGS, the peer's
 * control and QPACK streams read with http3/'s reader and decoder), then requests on bidirectional streams:
 * one HEADERS frame encoded once, FIN, the answer read to its end and checked (status 200, its DATA octets).
 * Prints requests/s, this process's CPU per request, the server's CPU share, the load average around the run
 * and, per stream, what opening one costs (the time `createBidirectionalStream` takes to resolve).
 *
 *   deno run -A --unstable-net bench/h3_probe.ts [--connections 1] [--streams 1] [--requests 2000]
 *     [--server aioquic|deno] [--byob: answers read into reused buffers]
 *     [--core: streams opened as bare rids, read and written with Deno's core ops, as runner/http/h3/slot.ts]
 *     [--url https://127.0.0.1:PORT/ to use a running server instead; --cacert PEM]
 */
import { parseArgs } from "node:util";
import { H3FrameReader, readSettings } from "../http3/frames.ts";
import {
  CONTROL_STREAM_PREFACE,
  FRAME_HEADERS,
  READ_DATA,
  READ_FRAME,
  STREAM_CONTROL,
  STREAM_QPACK_ENCODER,
  writeFrameHeader,
} from "../http3/frames.ts";
import { QpackDecoder } from "../http3/qpack_decoder.ts";
import { encodeRequestFields } from "../http3/qpack_encoder.ts";
import { readVarint } from "../http3/varint.ts";
import { readProcStat } from "../system/proc_stat.ts";
import { byobChunks } from "../system/byob_chunks.ts";
import { bareStreamOpener, core, type OpenStream } from "../runner/http/h3/deno_quic.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    connections: { type: "string", default: "1" },
    streams: { type: "string", default: "1" },
    requests: { type: "string", default: "2000" },
    server: { type: "string", default: "aioquic" },
    url: { type: "string" },
    cacert: { type: "string" },
    byob: { type: "boolean", default: false },
    core: { type: "boolean", default: false },
  },
});
const connections = Number(values.connections);
const streamsPerConn = Number(values.streams);
const requests = Number(values.requests);

/**
 * Starts bench/h3_server.py (aioquic) or bench/h3_deno_server.ts (`--server deno`) with a fresh self-signed
 * certificate; its port, certificate and process.
 */
async function startServer() {
  const dir = await Deno.makeTempDir({ prefix: "h3_probe_" });
  const ssl = await new Deno.Command("openssl", {
    args: [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-days",
      "1",
    ]
      .concat(["-keyout", `${dir}/key.pem`, "-out", `${dir}/cert.pem`, "-subj", "/CN=localhost"])
      .concat([
        "-addext",
        "subjectAltName=DNS:localhost,IP:127.0.0.1",
        "-addext",
        "basicConstraints=critical,CA:FALSE",
      ]),
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!ssl.success) throw new Error(`openssl: ${new TextDecoder().decode(ssl.stderr)}`);
  const python = Deno.env.get("H3_PYTHON") ?? "/tmp/peers/py/bin/python";
  const files = ["--cert", `${dir}/cert.pem`, "--key", `${dir}/key.pem`];
  const [command, script] = values.server === "deno"
    ? [Deno.execPath(), [
      "run",
      "-A",
      "--unstable-net",
      new URL("h3_deno_server.ts", import.meta.url).pathname,
    ]]
    : [python, [new URL("h3_server.py", import.meta.url).pathname]];
  const child = new Deno.Command(command, {
    args: [...script, ...files],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!/listening (\d+)/.test(text)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the server exited before listening: ${text}`);
    text += value;
  }
  reader.releaseLock();
  return {
    port: Number(/listening (\d+)/.exec(text)![1]),
    cert: await Deno.readTextFile(`${dir}/cert.pem`),
    child,
  };
}

/** Reads the peer's unidirectional streams: control (SETTINGS first), QPACK encoder; others drained. */
async function readPeerStreams(conn: Deno.QuicConn, decoder: QpackDecoder) {
  for await (const stream of conn.incomingUnidirectionalStreams) {
    (async () => {
      let type = -1;
      const control = new H3FrameReader(true);
      for await (const chunk of stream) {
        let at = 0;
        if (type < 0) {
          type = readVarint(chunk, 0, chunk.length);
          at = 1 << (chunk[0] >> 6);
        }
        if (type === STREAM_CONTROL) {
          while (at < chunk.length) {
            at = control.read(chunk, at, chunk.length);
            if (at < 0) throw new Error(`peer control stream: error ${-at}`);
            if (control.event === READ_FRAME && control.type === 0x4) {
              const r = readSettings(control.payload, control.payloadOff, control.payloadLen);
              if (r < 0) throw new Error(`peer SETTINGS: error ${-r}`);
            }
          }
        } else if (type === STREAM_QPACK_ENCODER) decoder.readEncoderStream(chunk, at, chunk.length);
      }
    })().catch((e) => closing || console.error(String(e)));
  }
}

interface Tally {
  ok: number;
  bad: number;
  bodyBytes: number;
  openMs: number;
}

/** `--core`: each connection's stream opener (runner/http/h3/deno_quic.ts). */
const openers = new Map<Deno.QuicConn, OpenStream>();

/** The chunks of a stream's answer, opened as two rids, read with core ops into one buffer; both closed. */
async function* coreChunks(conn: Deno.QuicConn, request: Uint8Array) {
  const [tx, rx] = await openers.get(conn)!();
  const close = () => core.tryClose(tx);
  core.writeAll(tx, request).then(close, close);
  const buffer = new Uint8Array(16384);
  try {
    for (let n; (n = await core.read(rx, buffer)) > 0;) yield buffer.subarray(0, n);
  } finally {
    core.tryClose(rx);
  }
}

/** One request on a new bidirectional stream: the encoded HEADERS frame and FIN, the answer to its end. */
async function exchange(conn: Deno.QuicConn, request: Uint8Array, decoder: QpackDecoder, tally: Tally) {
  const t0 = performance.now();
  const stream = values.core ? null : await conn.createBidirectionalStream({ waitUntilAvailable: true });
  tally.openMs += performance.now() - t0;
  if (stream !== null) {
    const writer = stream.writable.getWriter();
    await writer.write(request);
    await writer.close();
  }
  const reader = new H3FrameReader(false);
  const id = stream === null ? 0 : Number(stream.readable.id);
  let status = 0;
  const chunks = stream === null
    ? coreChunks(conn, request)
    : values.byob
    ? byobChunks(stream.readable)
    : stream.readable;
  for await (const chunk of chunks) {
    sample ??= chunk.slice();
    for (let at = 0; at < chunk.length;) {
      at = reader.read(chunk, at, chunk.length);
      if (at < 0) throw new Error(`stream ${id}: error ${-at}`);
      if (reader.event === READ_DATA) tally.bodyBytes += reader.dataLen;
      else if (reader.event === READ_FRAME && reader.type === FRAME_HEADERS && status === 0) {
        status = decoder.decodeSection(
          id,
          reader.payload,
          reader.payloadOff,
          reader.payloadOff + reader.payloadLen,
        );
      }
    }
  }
  if (status === 200 && reader.atFrameBoundary) tally.ok++;
  else tally.bad++;
}

const own = values.url ? null : await startServer();
const target = own ? { host: "127.0.0.1", port: own.port } : (() => {
  const u = new URL(values.url!);
  return { host: u.hostname, port: Number(u.port || 443) };
})();
const cert = own ? own.cert : values.cacert ? await Deno.readTextFile(values.cacert) : undefined;
const section = encodeRequestFields("GET", "https", `${target.host}:${target.port}`, "/", [[
  "user-agent",
  "h3_probe",
]]);
const request = new Uint8Array(section.length + 16);
const requestEnd = writeFrameHeader(request, 0, FRAME_HEADERS, section.length);
request.set(section, requestEnd);
const requestBytes = request.subarray(0, requestEnd + section.length);

/** Set before the connections close, when their streams' readers fail by design. */
let closing = false;
/** The first answer's octets, for timing the codec alone. */
let sample: Uint8Array | null = null;
const tally: Tally = { ok: 0, bad: 0, bodyBytes: 0, openMs: 0 };
const handshakeMs: number[] = [];
const conns: Deno.QuicConn[] = [];
const decoders: QpackDecoder[] = [];
const controlWriters: WritableStreamDefaultWriter<Uint8Array>[] = [];
for (let c = 0; c < connections; c++) {
  const t0 = performance.now();
  const conn = await Deno.connectQuic({
    hostname: target.host,
    port: target.port,
    serverName: "localhost",
    alpnProtocols: ["h3"],
    caCerts: cert ? [cert] : undefined,
  });
  await conn.handshake;
  handshakeMs.push(performance.now() - t0);
  conn.closed.then((info) => closing || console.error(`connection ${c} closed:`, info));
  const controlStream = await conn.createUnidirectionalStream();
  const w = controlStream.getWriter();
  await w.write(CONTROL_STREAM_PREFACE);
  // Kept: a collected send stream is finished, and a finished control stream closes the connection.
  controlWriters.push(w);
  const decoder = new QpackDecoder();
  readPeerStreams(conn, decoder).catch(() => {});
  if (values.core) openers.set(conn, await bareStreamOpener(conn));
  conns.push(conn);
  decoders.push(decoder);
}

const warmup = Math.min(100, requests);
let next = 0;
async function loop(conn: Deno.QuicConn, decoder: QpackDecoder, limit: number) {
  while (next < limit) {
    next++;
    await exchange(conn, requestBytes, decoder, tally);
  }
}
const runAll = (limit: number) =>
  Promise.all(
    conns.flatMap((conn, c) => Array.from({ length: streamsPerConn }, () => loop(conn, decoders[c], limit))),
  );
await runAll(warmup);
const warm = { ...tally };
next = 0;
Object.assign(tally, { ok: 0, bad: 0, bodyBytes: 0, openMs: 0 });
const load0 = Deno.loadavg()[0];
const cpu0 = readProcStat("self")!;
const server0 = own ? readProcStat(own.child.pid) : null;
const t0 = performance.now();
await runAll(requests);
const elapsedSec = (performance.now() - t0) / 1000;
const cpu1 = readProcStat("self")!;
const server1 = own ? readProcStat(own.child.pid) : null;
const load1 = Deno.loadavg()[0];
const cpuSec = cpu1.userSec + cpu1.systemSec - cpu0.userSec - cpu0.systemSec;
const serverSec = server0 && server1
  ? server1.userSec + server1.systemSec - server0.userSec - server0.systemSec
  : NaN;
const done = tally.ok + tally.bad;
console.log(JSON.stringify({
  connections,
  streamsPerConnection: streamsPerConn,
  requests: done,
  ok: tally.ok,
  bad: tally.bad,
  warmupRequests: warm.ok + warm.bad,
  bodyBytes: tally.bodyBytes,
  elapsedSec: +elapsedSec.toFixed(3),
  requestsPerSec: Math.round(done / elapsedSec),
  clientCpuUsPerRequest: Math.round(cpuSec * 1e6 / done),
  clientCpuShare: +(cpuSec / elapsedSec).toFixed(2),
  serverCpuShare: +(serverSec / elapsedSec).toFixed(2),
  serverCpuUsPerRequest: Math.round(serverSec * 1e6 / done),
  streamOpenUsMean: Math.round(tally.openMs * 1000 / done),
  handshakeMs: handshakeMs.map((ms) => +ms.toFixed(1)),
  loadAverage1m: [load0, load1],
}));
/** Reading and decoding one answer with http3/ alone, to set apart from the QUIC API's share. */
function codecUsPerAnswer(answer: Uint8Array, rounds: number): number {
  const decoder = new QpackDecoder();
  const t = performance.now();
  for (let i = 0; i < rounds; i++) {
    const reader = new H3FrameReader(false);
    for (let at = 0; at < answer.length;) {
      at = reader.read(answer, at, answer.length);
      if (reader.event === READ_FRAME) {
        decoder.decodeSection(4, reader.payload, reader.payloadOff, reader.payloadOff + reader.payloadLen);
      }
    }
  }
  return (performance.now() - t) * 1000 / rounds;
}
console.log(JSON.stringify({ codecUsPerAnswer: +codecUsPerAnswer(sample!, 200_000).toFixed(2) }));
closing = true;
for (const conn of conns) conn.close({ closeCode: 0x100, reason: "" });
if (own) {
  own.child.kill("SIGTERM");
  await own.child.status;
}
