/**
 * @module
 * One balancer exchange: the request goes to a pooled upstream connection (sent again once on a fresh one
 * if the pooled one had closed), the answer streams back; a failure before its head is a 502.
 */
import { writeAll } from "../../../system/write_all.ts";
import { Framing, isInterim } from "../../../http1/body_framing.ts";
import { type BufferedConn, headFramer, MAX_HEAD_BYTES, parseHead, type UpstreamPool } from "./conn.ts";
import { type MessageFramer, NEED_MORE, PARSE_ERROR } from "../../../http1/message_framer.ts";
import { FramingError, plainAnswer, relayMessage, tunnel } from "./relay.ts";

/** A client's request head, framed: what it asks of the answer (HEAD, keep-alive) and how its body goes. */
type Head = MessageFramer;

/** The upstream closed the connection before sending a byte of the answer. */
class ClosedBeforeAnswer extends Error {}

/** Forwards the request `client.head` framed at client.buf[client.start, headEnd); true: keep open. */
export function exchange(client: BufferedConn, headEnd: number, pool: UpstreamPool) {
  const req = client.head!;
  const inBuffer = req.framing === Framing.None ||
    (req.framing === Framing.Length && client.end - headEnd >= req.contentLength);
  return (inBuffer ? exchangeBuffered : exchangeStreamed)(client, headEnd, req, pool);
}

async function exchangeBuffered(client: BufferedConn, headEnd: number, req: Head, pool: UpstreamPool) {
  const requestEnd = headEnd + (req.framing === Framing.Length ? req.contentLength : 0);
  const request = client.buf.subarray(client.start, requestEnd);
  let up = pool.takeIdle();
  for (;;) {
    const reused = up !== undefined;
    let answerHeadEnd: number;
    try {
      up ??= await pool.connect();
      await writeAll(up.conn, request);
      answerHeadEnd = await readAnswerHead(up, req.headMethod);
    } catch (err) {
      up?.close();
      // A pooled connection the upstream had closed: nothing was answered, so sending again is safe.
      if (reused && (up!.end === 0 || err instanceof ClosedBeforeAnswer)) {
        up = undefined;
        continue;
      }
      client.start = requestEnd;
      await writeAll(client.conn, badGateway(pool, err, !req.keepAlive));
      return req.keepAlive;
    }
    client.start = requestEnd;
    return await relayAnswer(client, up, answerHeadEnd, req, pool);
  }
}

async function exchangeStreamed(client: BufferedConn, headEnd: number, req: Head, pool: UpstreamPool) {
  let up: BufferedConn | undefined;
  let bodySent = false;
  let sending: Promise<void> = Promise.resolve();
  let answerHeadEnd: number;
  try {
    up = pool.takeIdle() ?? await pool.connect();
    const upstream = up;
    sending = relayMessage(client, headEnd, upstream.conn, req).then(
      () => void (bodySent = true),
      () => upstream.close(), // the answer read below fails too, unless the upstream answered already
    );
    answerHeadEnd = await readAnswerHead(upstream, req.headMethod);
  } catch (err) {
    up?.close();
    await writeAll(client.conn, badGateway(pool, err, true));
    return false; // the rest of the request body is still on its way: this connection cannot go on
  }
  const keep = await relayAnswer(client, up, answerHeadEnd, req, pool);
  if (bodySent) return keep;
  // Answered before the request body was through (e.g. 413): neither connection can be reused.
  up.close();
  await sending;
  return false;
}

/** Relays interim answers, then the final answer; returns whether the client connection stays open. */
async function relayAnswer(
  client: BufferedConn,
  up: BufferedConn,
  headEnd: number,
  req: Head,
  pool: UpstreamPool,
): Promise<boolean> {
  const answer = up.head!;
  let relayedBefore = -1; // up.relayedBytes when the final answer's head was in
  try {
    while (isInterim(answer.status)) {
      await writeAll(client.conn, up.buf.subarray(up.start, headEnd));
      up.start = headEnd;
      headEnd = await readAnswerHead(up, req.headMethod);
    }
    if (answer.status === 101) {
      await tunnel(client, up);
      return false;
    }
    relayedBefore = up.relayedBytes;
    const wholeEnd = headEnd + answer.contentLength;
    if (answer.framing === Framing.Length && wholeEnd <= up.end) {
      // The common case, an answer that came in one read: one write, no relay machinery.
      await writeAll(client.conn, up.buf.subarray(up.start, wholeEnd));
      up.start = wholeEnd;
    } else await relayMessage(up, headEnd, client.conn, answer);
  } catch (err) {
    up.close();
    // Refused framing before a byte of the final answer went out: the client can still get a 502.
    if (!(err instanceof FramingError) || (relayedBefore >= 0 && up.relayedBytes !== relayedBefore)) {
      throw err;
    }
    await writeAll(client.conn, badGateway(pool, err, true));
    return false;
  }
  if (req.keepAlive && answer.keepAlive) pool.release(up);
  else up.close();
  return req.keepAlive && answer.keepAlive;
}

/** Reads until the answer's head is complete; returns its end. Its parsed form is `up.head`. */
async function readAnswerHead(up: BufferedConn, requestWasHead: boolean): Promise<number> {
  const head = up.head ??= headFramer(false);
  for (;;) {
    const end = parseHead(head, up.buf, up.start, up.end, requestWasHead);
    if (end >= 0) {
      up.start += head.leadingBytes; // empty lines before a status line are not passed on
      return end;
    }
    if (end === PARSE_ERROR) throw new FramingError(`malformed answer head: ${head.error}`);
    if (end === NEED_MORE && up.end - up.start >= MAX_HEAD_BYTES) {
      throw new FramingError("answer head too large");
    }
    if (await up.fill()) continue;
    if (up.end === 0) throw new ClosedBeforeAnswer("connection closed before an answer");
    throw new FramingError("connection closed inside the answer head");
  }
}

/** 502 with the reason, counted per upstream. */
function badGateway(pool: UpstreamPool, err: unknown, close: boolean): Uint8Array {
  pool.badGateways++;
  const message = err instanceof Error ? err.message : String(err);
  return plainAnswer(502, "Bad Gateway", { error: `upstream ${pool.baseUrl} failed: ${message}` }, close);
}
