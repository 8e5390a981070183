/**
 * @module
 * A measuring client, never part of loadlab: HTTP/3 GETs through quiche's C library (`Deno.dlopen` of
 * libquiche.so, built by bench/build_quiche.sh) driven from one synchronous loop with our own UDP sockets
 * (libc's `socket`, `poll`, `recvmmsg`, `sendmmsg` through FFI, as the engine's epoll room does TCP): N
 * connections x S streams, each stream a GET whose HEADERS frame is encoded once (http3/), its answer read
 * with http3/'s frame reader and QPACK decoder and checked (200, frames whole). quiche does QUIC, TLS
 * (BoringSSL, the server's certificate checked against `--cacert` and `--server-name`), loss recovery
 * and timers; the loop does what a product transport beside runner/http/h3/deno_quic.ts would. It answers
 * "what would the FFI route cost a request" beside `attack --h3` and `--h2` (bench/h3.ts `--tools
 * quiche-ffi`).
 *
 *   deno run -A bench/h3_quiche_client.ts --url https://127.0.0.1:PORT/ --cacert CA.pem
 *     [--server-name localhost] [--connections 10] [--streams 1] [--duration 10]
 *     [--lib /tmp/peers/quiche/libquiche.so]
 *
 * Prints one JSON line: requests (counted after a 0.5 s warm-up), ok, bad, requestsPerSec, and the
 * process's CPU per request over the measured part (start-up excluded; bench/h3.ts measures it included).
 */
import { parseArgs } from "node:util";
import {
  CONTROL_STREAM_PREFACE,
  FRAME_HEADERS,
  H3FrameReader,
  READ_FRAME,
  STREAM_QPACK_ENCODER,
  writeFrameHeader,
} from "../http3/frames.ts";
import { QpackDecoder } from "../http3/qpack_decoder.ts";
import { encodeRequestFields } from "../http3/qpack_encoder.ts";
import { readProcStat } from "../system/proc_stat.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    url: { type: "string" },
    cacert: { type: "string" },
    "server-name": { type: "string", default: "localhost" },
    connections: { type: "string", default: "10" },
    streams: { type: "string", default: "1" },
    duration: { type: "string", default: "10" },
    lib: { type: "string", default: Deno.env.get("QUICHE_LIB") ?? "/tmp/peers/quiche/libquiche.so" },
  },
});
if (!values.url || !values.cacert) {
  console.error("usage: h3_quiche_client.ts --url https://127.0.0.1:PORT/ --cacert CA.pem [--connections N]");
  Deno.exit(2);
}
const CONNECTIONS = Number(values.connections);
const STREAMS = Number(values.streams);
const DURATION_MS = Number(values.duration) * 1_000;
const WARMUP_MS = 500;

// ssize_t results are read as i32 (their low half: every value here is small, -1 stays -1), and size_t and
// uint64_t arguments (lengths, stream ids, all < 2^32) passed as u32, which the call zero-extends: a BigInt
// per call would cost more than the call.
const QUICHE = {
  quiche_config_new: { parameters: ["u32"], result: "pointer" },
  quiche_config_load_verify_locations_from_file: { parameters: ["pointer", "buffer"], result: "i32" },
  quiche_config_verify_peer: { parameters: ["pointer", "bool"], result: "void" },
  quiche_config_set_application_protos: { parameters: ["pointer", "buffer", "u32"], result: "i32" },
  quiche_config_set_max_idle_timeout: { parameters: ["pointer", "u32"], result: "void" },
  quiche_config_set_max_recv_udp_payload_size: { parameters: ["pointer", "u32"], result: "void" },
  quiche_config_set_max_send_udp_payload_size: { parameters: ["pointer", "u32"], result: "void" },
  quiche_config_set_initial_max_data: { parameters: ["pointer", "u32"], result: "void" },
  quiche_config_set_initial_max_stream_data_bidi_local: { parameters: ["pointer", "u32"], result: "void" },
  quiche_config_set_initial_max_stream_data_bidi_remote: { parameters: ["pointer", "u32"], result: "void" },
  quiche_config_set_initial_max_stream_data_uni: { parameters: ["pointer", "u32"], result: "void" },
  quiche_config_set_initial_max_streams_bidi: { parameters: ["pointer", "u32"], result: "void" },
  quiche_config_set_initial_max_streams_uni: { parameters: ["pointer", "u32"], result: "void" },
  quiche_config_set_disable_active_migration: { parameters: ["pointer", "bool"], result: "void" },
  quiche_connect: {
    parameters: ["buffer", "buffer", "u32", "buffer", "u32", "buffer", "u32", "pointer"],
    result: "pointer",
  },
  quiche_conn_recv: { parameters: ["pointer", "pointer", "u32", "buffer"], result: "i32" },
  quiche_conn_send: { parameters: ["pointer", "pointer", "u32", "buffer"], result: "i32" },
  quiche_conn_stream_send: {
    parameters: ["pointer", "u32", "buffer", "u32", "bool", "buffer"],
    result: "i32",
  },
  quiche_conn_stream_recv: {
    parameters: ["pointer", "u32", "buffer", "u32", "buffer", "buffer"],
    result: "i32",
  },
  quiche_conn_readable: { parameters: ["pointer"], result: "pointer" },
  quiche_stream_iter_next: { parameters: ["pointer", "buffer"], result: "bool" },
  quiche_stream_iter_free: { parameters: ["pointer"], result: "void" },
  quiche_conn_timeout_as_millis: { parameters: ["pointer"], result: "i64" },
  quiche_conn_on_timeout: { parameters: ["pointer"], result: "void" },
  quiche_conn_is_established: { parameters: ["pointer"], result: "bool" },
  quiche_conn_is_closed: { parameters: ["pointer"], result: "bool" },
  quiche_conn_stats: { parameters: ["pointer", "buffer"], result: "void" },
  quiche_conn_close: { parameters: ["pointer", "bool", "u32", "buffer", "u32"], result: "i32" },
  quiche_conn_peer_error: { parameters: ["pointer", "buffer", "buffer", "buffer", "buffer"], result: "bool" },
  quiche_conn_local_error: {
    parameters: ["pointer", "buffer", "buffer", "buffer", "buffer"],
    result: "bool",
  },
} as const satisfies Deno.ForeignLibraryInterface;

const LIBC = {
  socket: { parameters: ["i32", "i32", "i32"], result: "i32" },
  connect: { parameters: ["i32", "buffer", "u32"], result: "i32" },
  getsockname: { parameters: ["i32", "buffer", "buffer"], result: "i32" },
  poll: { parameters: ["buffer", "u32", "i32"], result: "i32" },
  recvmmsg: { parameters: ["i32", "pointer", "u32", "i32", "pointer"], result: "i32" },
  sendmmsg: { parameters: ["i32", "pointer", "u32", "i32"], result: "i32" },
  close: { parameters: ["i32"], result: "i32" },
  __errno_location: { parameters: [], result: "pointer" },
} as const satisfies Deno.ForeignLibraryInterface;

const q = Deno.dlopen(values.lib, QUICHE).symbols;
const c = Deno.dlopen("libc.so.6", LIBC).symbols;
const errno = new Deno.UnsafePointerView(c.__errno_location()!);

const QUICHE_ERR_DONE = -1;
const QUICHE_ERR_STREAM_LIMIT = -12;
const AF_INET = 2;
const SOCK_DGRAM = 2;
const SOCK_NONBLOCK = 0o4000;
const SOCK_CLOEXEC = 0o2000000;
const POLLIN = 1;
const MSG_DONTWAIT = 0x40;
const EAGAIN = 11;
/** Datagrams per recvmmsg / sendmmsg call. */
const BATCH = 32;
const SLOT_BYTES = 2048;
const MAX_DATAGRAM_BYTES = 1350;
const MMSG_BYTES = 64; // struct mmsghdr on 64-bit Linux: msghdr (56) + msg_len, padded
const IOV_BYTES = 16;

const cstr = (s: string) => new TextEncoder().encode(s + "\0");
/** Off-heap memory: a `new ArrayBuffer` never moves, so its address can sit inside structs handed to C. */
const fixed = (n: number) => new Uint8Array(new ArrayBuffer(n));
const addr = (b: Uint8Array) => Deno.UnsafePointer.value(Deno.UnsafePointer.of(b)!) as bigint;

/** `count` datagram slots of SLOT_BYTES and their mmsghdr + iovec arrays, for recvmmsg or sendmmsg. */
function datagramBatch(count: number) {
  const data = fixed(count * SLOT_BYTES);
  const msgs = fixed(count * MMSG_BYTES);
  const iovs = fixed(count * IOV_BYTES);
  const m = new DataView(msgs.buffer);
  const v = new DataView(iovs.buffer);
  const dataAt = addr(data);
  const iovAt = addr(iovs);
  for (let i = 0; i < count; i++) {
    v.setBigUint64(i * IOV_BYTES, dataAt + BigInt(i * SLOT_BYTES), true);
    v.setBigUint64(i * IOV_BYTES + 8, BigInt(SLOT_BYTES), true);
    m.setBigUint64(i * MMSG_BYTES + 16, iovAt + BigInt(i * IOV_BYTES), true); // msg_iov
    m.setBigUint64(i * MMSG_BYTES + 24, 1n, true); // msg_iovlen
  }
  const slots = Array.from({ length: count }, (_, i) => data.subarray(i * SLOT_BYTES, (i + 1) * SLOT_BYTES));
  const slotPtrs = slots.map((s) => Deno.UnsafePointer.of(s)!);
  return {
    slots,
    slotPtrs,
    msgsPtr: Deno.UnsafePointer.of(msgs)!,
    /** msg_len of message i (recvmmsg's result), as 32-bit words. */
    lens: new Uint32Array(msgs.buffer),
    /** iov_len of slot i (sendmmsg's input), low 32 bits. */
    iovLens: new Uint32Array(iovs.buffer),
  };
}
const rx = datagramBatch(BATCH);
const tx = datagramBatch(BATCH);

// quiche's configuration: h3, the CA to check the server with, windows that never limit 13-octet answers.
const url = new URL(values.url);
const config = q.quiche_config_new(1)!;
if (q.quiche_config_load_verify_locations_from_file(config, cstr(values.cacert)) !== 0) {
  throw new Error(`quiche could not load ${values.cacert}`);
}
q.quiche_config_verify_peer(config, true);
const alpn = new Uint8Array([2, 0x68, 0x33]);
q.quiche_config_set_application_protos(config, alpn, 3);
q.quiche_config_set_max_idle_timeout(config, 30_000);
q.quiche_config_set_max_recv_udp_payload_size(config, SLOT_BYTES);
q.quiche_config_set_max_send_udp_payload_size(config, MAX_DATAGRAM_BYTES);
q.quiche_config_set_initial_max_data(config, 10_000_000);
q.quiche_config_set_initial_max_stream_data_bidi_local(config, 1_000_000);
q.quiche_config_set_initial_max_stream_data_bidi_remote(config, 1_000_000);
q.quiche_config_set_initial_max_stream_data_uni(config, 1_000_000);
q.quiche_config_set_initial_max_streams_bidi(config, 100);
q.quiche_config_set_initial_max_streams_uni(config, 100);
q.quiche_config_set_disable_active_migration(config, true);

const section = encodeRequestFields("GET", "https", url.host, url.pathname, [["user-agent", "h3_quiche"]]);
const request = new Uint8Array(section.length + 16);
const requestLen = writeFrameHeader(request, 0, FRAME_HEADERS, section.length) + section.length;
request.set(section, requestLen - section.length);

/** struct sockaddr_in of 127.0.0.1-style dotted IPv4 `host` and `port`. */
function sockaddrIn(host: string, port: number): Uint8Array {
  const sa = fixed(16);
  sa[0] = AF_INET;
  sa[2] = port >> 8;
  sa[3] = port & 0xff;
  sa.set(host.split(".").map(Number), 4);
  return sa;
}

interface Conn {
  fd: number;
  conn: Deno.PointerValue;
  recvInfo: Uint8Array;
  /** Request streams in flight: stream id -> its slot's frame reader. */
  open: Map<number, H3FrameReader>;
  /** Slots waiting for stream credit. */
  waiting: H3FrameReader[];
  nextStream: number;
  setUp: boolean;
  /** The server's unidirectional streams' types, by stream id. */
  uniTypes: Map<number, number>;
  deadlineMs: number;
  decoder: QpackDecoder;
}

const peer = sockaddrIn(url.hostname, Number(url.port || 443));
const conns: Conn[] = [];
for (let i = 0; i < CONNECTIONS; i++) {
  const fd = c.socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0 || c.connect(fd, peer, 16) < 0) throw new Error(`socket/connect: errno ${errno.getInt32()}`);
  // quiche_recv_info (from, from_len, to, to_len) and the two sockaddrs it points at, in one buffer that the
  // connection keeps: a sockaddr referenced only from C would be collected under quiche.
  const recvInfo = fixed(64);
  const local = recvInfo.subarray(48, 64);
  recvInfo.set(peer, 32);
  c.getsockname(fd, local, new Uint8Array(new Uint32Array([16]).buffer));
  const scid = crypto.getRandomValues(new Uint8Array(16));
  const conn = q.quiche_connect(cstr(values["server-name"]), scid, 16, local, 16, peer, 16, config);
  if (conn === null) throw new Error("quiche_connect failed");
  const ri = new DataView(recvInfo.buffer);
  ri.setBigUint64(0, addr(recvInfo) + 32n, true);
  ri.setUint32(8, 16, true);
  ri.setBigUint64(16, addr(recvInfo) + 48n, true);
  ri.setUint32(24, 16, true);
  conns.push({
    fd,
    conn,
    recvInfo,
    open: new Map(),
    waiting: Array.from({ length: STREAMS }, () => new H3FrameReader(false)),
    nextStream: 0,
    setUp: false,
    uniTypes: new Map(),
    deadlineMs: 0,
    decoder: new QpackDecoder(),
  });
}

const sendInfo = fixed(512);
const streamIdBytes = fixed(8);
const streamId = new Uint32Array(streamIdBytes.buffer);
const fin = fixed(1);
const errCode = fixed(8);
const readBuf = fixed(65536);
const pollFds = fixed(8 * CONNECTIONS);
const pollView = new DataView(pollFds.buffer);
conns.forEach((k, i) => {
  pollView.setInt32(i * 8, k.fd, true);
  pollView.setInt16(i * 8 + 4, POLLIN, true);
});

const tally = { ok: 0, bad: 0, sendErrors: 0 };
let measuredFrom = -1;
let measuredOk = 0;
let stopping = false;

/** Who closed `k` and the QUIC error code (0x100 + a TLS alert for a failed handshake). */
function closeReason(k: Conn): string {
  const isApp = fixed(1);
  const code = fixed(8);
  const reason = fixed(16);
  for (
    const [who, f] of [["we", q.quiche_conn_local_error], ["the peer", q.quiche_conn_peer_error]] as const
  ) {
    if (f(k.conn, isApp, code, reason, fixed(8))) {
      return `${who} closed it with ${isApp[0] ? "application" : "transport"} error 0x${
        new DataView(code.buffer).getBigUint64(0, true).toString(16)
      }`;
    }
  }
  return "no error recorded";
}

/** Sends every packet quiche has for `k`, BATCH datagrams a sendmmsg. */
function flush(k: Conn): void {
  for (;;) {
    let n = 0;
    for (; n < BATCH; n++) {
      const len = q.quiche_conn_send(k.conn, tx.slotPtrs[n], MAX_DATAGRAM_BYTES, sendInfo);
      if (len === QUICHE_ERR_DONE) break;
      if (len < 0) throw new Error(`quiche_conn_send: ${len}`);
      tx.iovLens[n * 4 + 2] = len;
    }
    if (n === 0) return;
    if (c.sendmmsg(k.fd, tx.msgsPtr, n, 0) < 0) tally.sendErrors++;
    if (n < BATCH) return;
  }
}

/** Sends the request on a new stream for `reader`'s slot, or parks it until the peer grants credit. */
function start(k: Conn, reader: H3FrameReader): void {
  if (stopping) return;
  const id = k.nextStream;
  const n = q.quiche_conn_stream_send(k.conn, id, request, requestLen, true, errCode);
  if (n === QUICHE_ERR_STREAM_LIMIT) {
    k.waiting.push(reader);
    return;
  }
  if (n !== requestLen) throw new Error(`stream_send: ${n}`);
  k.nextStream += 4;
  reader.reset();
  k.open.set(id, reader);
}

/** Reads every readable stream of `k`: answers are checked and their slots start the next request. */
function readStreams(k: Conn): void {
  const iter = q.quiche_conn_readable(k.conn);
  if (iter === null) return;
  while (q.quiche_stream_iter_next(iter, streamIdBytes)) {
    const id = streamId[0];
    const reader = k.open.get(id);
    let status = reader === undefined ? -1 : 0;
    for (;;) {
      const n = q.quiche_conn_stream_recv(k.conn, id, readBuf, 65536, fin, errCode);
      if (n < 0 && n !== QUICHE_ERR_DONE && reader !== undefined) {
        // A reset stream (or the like): its request is counted as failed and its slot goes on.
        k.open.delete(id);
        tally.bad++;
        start(k, reader);
      }
      if (n < 0) break;
      if (reader === undefined) {
        // The server's unidirectional streams: the type is the first octet (all types here are < 64); the
        // QPACK encoder's instructions go to the decoder, the control stream's frames are read and dropped.
        let at = 0;
        let type = k.uniTypes.get(id);
        if (type === undefined && n > 0) k.uniTypes.set(id, type = readBuf[at++]);
        if (type === STREAM_QPACK_ENCODER && k.decoder.readEncoderStream(readBuf, at, n) < 0) {
          throw new Error("QPACK encoder stream error");
        }
        continue;
      }
      for (let at = 0; at < n;) {
        at = reader.read(readBuf, at, n);
        if (at < 0) {
          status = -1;
          break;
        }
        if (reader.event === READ_FRAME && reader.type === FRAME_HEADERS && status === 0) {
          const end = reader.payloadOff + reader.payloadLen;
          status = k.decoder.decodeSection(id, reader.payload, reader.payloadOff, end);
        }
      }
      if (fin[0] === 1) {
        k.open.delete(id);
        if (status === 200 && reader.atFrameBoundary) {
          tally.ok++;
          if (measuredFrom >= 0 && !stopping) measuredOk++;
        } else tally.bad++;
        start(k, reader);
        break;
      }
    }
  }
  q.quiche_stream_iter_free(iter);
  while (k.waiting.length > 0 && k.setUp && !stopping) {
    const before = k.waiting.length;
    start(k, k.waiting.shift()!);
    if (k.waiting.length >= before) break;
  }
}

/** After packets or a timer: the h3 setup once established, the answers, the timer, the packets out. */
function service(k: Conn, nowMs: number): void {
  if (!k.setUp && q.quiche_conn_is_established(k.conn)) {
    k.setUp = true;
    const n = q.quiche_conn_stream_send(
      k.conn,
      2,
      CONTROL_STREAM_PREFACE,
      CONTROL_STREAM_PREFACE.length,
      false,
      errCode,
    );
    if (n < 0) throw new Error(`control stream: ${n}`);
    const slots = k.waiting.splice(0);
    for (const r of slots) start(k, r);
  }
  if (k.setUp) readStreams(k);
  flush(k);
  const t = Number(q.quiche_conn_timeout_as_millis(k.conn));
  k.deadlineMs = t < 0 ? Infinity : nowMs + t;
}

const t0 = performance.now();
for (const k of conns) service(k, t0);
let cpu0 = readProcStat("self")!;
let measuredStartMs = 0;
let endMs = Infinity;
for (;;) {
  let now = performance.now();
  if (measuredFrom < 0 && conns.every((k) => k.setUp) && now - t0 > WARMUP_MS) {
    measuredFrom = tally.ok;
    measuredStartMs = now;
    endMs = now + DURATION_MS;
    cpu0 = readProcStat("self")!;
  }
  if (now >= endMs && !stopping) {
    stopping = true;
    endMs = now;
  }
  if (stopping && (conns.every((k) => k.open.size === 0) || now - endMs > 2_000)) break;
  let wait = 100;
  for (const k of conns) wait = Math.min(wait, Math.max(0, Math.ceil(k.deadlineMs - now)));
  const ready = c.poll(pollFds, CONNECTIONS, wait);
  if (ready < 0) throw new Error(`poll: errno ${errno.getInt32()}`);
  now = performance.now();
  for (let i = 0; i < CONNECTIONS; i++) {
    const k = conns[i];
    let got = false;
    if ((pollView.getInt16(i * 8 + 6, true) & POLLIN) !== 0) {
      for (;;) {
        const n = c.recvmmsg(k.fd, rx.msgsPtr, BATCH, MSG_DONTWAIT, null);
        if (n <= 0) {
          if (n < 0 && errno.getInt32() !== EAGAIN) throw new Error(`recvmmsg: errno ${errno.getInt32()}`);
          break;
        }
        for (let m = 0; m < n; m++) {
          const len = rx.lens[m * 16 + 14];
          q.quiche_conn_recv(k.conn, rx.slotPtrs[m], len, k.recvInfo);
        }
        got = true;
        if (n < BATCH) break;
      }
    }
    if (now >= k.deadlineMs) {
      q.quiche_conn_on_timeout(k.conn);
      got = true;
    }
    if (got) service(k, now);
    if (q.quiche_conn_is_closed(k.conn)) throw new Error(`connection ${i} closed: ${closeReason(k)}`);
  }
}
const cpu1 = readProcStat("self")!;
const measuredMs = endMs - measuredStartMs;
const requests = measuredOk;
const cpuSec = cpu1.userSec + cpu1.systemSec - cpu0.userSec - cpu0.systemSec;
// quiche_stats opens with the packets received and sent (size_t each): over every request, warm-up included.
const stats = fixed(1024);
const packets = new BigUint64Array(stats.buffer);
let received = 0;
let sent = 0;
for (const k of conns) {
  q.quiche_conn_stats(k.conn, stats);
  received += Number(packets[0]);
  sent += Number(packets[1]);
}
for (const k of conns) {
  q.quiche_conn_close(k.conn, true, 0x100, new Uint8Array(1), 0);
  flush(k);
  c.close(k.fd);
}
console.log(JSON.stringify({
  connections: CONNECTIONS,
  streams: STREAMS,
  requests,
  ok: tally.ok,
  bad: tally.bad,
  sendErrors: tally.sendErrors,
  elapsedSec: +(measuredMs / 1000).toFixed(3),
  requestsPerSec: Math.round(requests * 1000 / measuredMs),
  cpuUsPerRequest: +(cpuSec * 1e6 / requests).toFixed(1),
  cpuShare: +(cpuSec * 1000 / measuredMs).toFixed(2),
  packetsPerRequest: { received: +(received / tally.ok).toFixed(2), sent: +(sent / tally.ok).toFixed(2) },
  loadAverage1m: Deno.loadavg()[0],
}));
