/**
 * @module
 * The opening handshake on a freshly dialed socket: the Upgrade request written, the answer read until its
 * head is whole and checked; its time is recorded apart from the connect.
 */
import type { ErrorKind } from "../../../results/mod.ts";
import { readHandshake } from "../../../ws/handshake_answer.ts";
import { classifyError, errorMessage } from "../exchange_errors.ts";
import type { ConnectionShared } from "../load_connection.ts";
import { inlineOf, type TransportConn } from "../transport/transport.ts";
import { WS_READ_BUFFER_BYTES, type WsRun } from "./run.ts";

/** The connection the handshake runs for: its watchdog fields and its failures' counter. */
interface HandshakeWatch {
  deadlineMs: number;
  timedOut: boolean;
  fault(nowMs: number, kind: ErrorKind, message: string): void;
}

/** One handshake's request with the key and subprotocols it offers, and the stats its time counts in. */
export type HandshakeOffer = ReturnType<typeof offerOf>;

/** A handshake's first buffer: an answer's head is 130-250 bytes, and a crowd holds one each. */
const HANDSHAKE_FIRST_BYTES = 256;

/** Handshake buffers a run keeps for reuse at most (one slice of a crowd's connects). */
const KEPT_HANDSHAKE_BUFFERS = 256;

/** The run's own offer with a fresh key; `deflate`: permessage-deflate was offered. */
export function offerOf(run: WsRun) {
  const { request, key } = run.upgrade.next();
  return { request, key, protocols: run.protocols, deflate: run.deflate, stats: run.stats };
}

/** A first buffer for a handshake of `run`: one an earlier handshake gave back, or a new one. */
export function takeHandshakeBuffer(run: WsRun): Uint8Array {
  return run.handshakeBuffers.pop() ?? new Uint8Array(HANDSHAKE_FIRST_BYTES);
}

/** Gives a handshake's buffer back once nothing reads into it; one grown past the first size is dropped. */
export function giveBackHandshakeBuffer(run: WsRun, buf: Uint8Array): void {
  const kept = run.handshakeBuffers;
  if (buf.length === HANDSHAKE_FIRST_BYTES && kept.length < KEPT_HANDSHAKE_BUFFERS) kept.push(buf);
}

/**
 * Runs the handshake: the bytes read past the head (at the start of `buf`) and whether deflate was agreed;
 * null when it failed (counted). The answer's buffer doubles up to WS_READ_BUFFER_BYTES.
 */
export async function handshake(
  sock: TransportConn,
  buf: Uint8Array,
  offer: HandshakeOffer,
  shared: ConnectionShared,
  watch: HandshakeWatch,
) {
  const { request, key, protocols, deflate, stats } = offer;
  const startMs = performance.now();
  watch.deadlineMs = startMs + shared.timeoutMs;
  watch.timedOut = false;
  let have = 0;
  try {
    // What the kernel takes now (the whole request, on an event-loop transport), before anything else can
    // run: the run's request may be its template's bytes, which the next handshake's key rewrites.
    const inline = inlineOf(sock);
    const taken = inline === null ? 0 : inline.writeNow(request);
    if (taken < request.length) {
      for (let rest = request.slice(taken); rest.length > 0;) rest = rest.subarray(await sock.write(rest));
    }
    shared.recorder.addBytesWritten(startMs, request.length);
    while (true) {
      if (have === buf.length && buf.length < WS_READ_BUFFER_BYTES) buf = grown(buf);
      const n = have < buf.length ? await sock.read(buf.subarray(have)) : 0;
      const nowMs = performance.now();
      if (n === null) {
        watch.fault(nowMs, "ws-handshake", "connection closed before the handshake's answer");
        return null;
      }
      shared.recorder.addBytesRead(nowMs, n);
      have += n;
      const answer = readHandshake(buf, have, key, protocols, have - n, deflate);
      if (answer.kind === "more") {
        if (have < buf.length || buf.length < WS_READ_BUFFER_BYTES) continue;
        watch.fault(nowMs, "ws-handshake", "handshake answer head too large");
        return null;
      }
      if (answer.kind === "failed") {
        watch.fault(nowMs, `ws-${answer.fault}`, answer.message);
        return null;
      }
      stats.handshake(nowMs, (nowMs - startMs) * 1000, deflate, answer.deflate);
      buf.copyWithin(0, answer.headBytes, have);
      return { extraBytes: have - answer.headBytes, deflate: answer.deflate, buf };
    }
  } catch (err) {
    const nowMs = performance.now();
    if (watch.timedOut) watch.fault(nowMs, "timeout", `no handshake answer within ${shared.timeoutMs} ms`);
    else watch.fault(nowMs, classifyError(err, "read"), errorMessage(err));
    return null;
  } finally {
    watch.deadlineMs = Infinity;
  }
}

/** `buf`'s bytes in a buffer twice its size, at most WS_READ_BUFFER_BYTES. */
function grown(buf: Uint8Array): Uint8Array {
  const bigger = new Uint8Array(
    Math.min(WS_READ_BUFFER_BYTES, Math.max(2 * buf.length, HANDSHAKE_FIRST_BYTES)),
  );
  bigger.set(buf);
  return bigger;
}
