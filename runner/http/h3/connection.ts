/**
 * @module
 * One HTTP/3 connection of a worker over Deno's QUIC (`Deno.connectQuic`): the handshake with ALPN `h3`, then
 * our control and QPACK streams, whose writers live as long as the connection (a finished critical stream
 * closes it, RFC 9114 6.2.1). A connection failure is kept, so each request it ends counts under its kind.
 */
import type { ErrorKind } from "../../../results/mod.ts";
import type { ConnectionShared } from "../load_connection.ts";
import {
  CONTROL_STREAM_PREFACE,
  FRAME_GOAWAY,
  FRAME_SETTINGS,
  H3_CLOSED_CRITICAL_STREAM,
  H3_GENERAL_PROTOCOL_ERROR,
  H3_NO_ERROR,
  h3ErrorName,
  H3FrameReader,
  READ_FRAME,
  readSettings,
  STREAM_CONTROL,
  STREAM_QPACK_DECODER,
  STREAM_QPACK_ENCODER,
} from "../../../http3/frames.ts";
import { QpackDecoder, qpackErrorName, qpackH3Code } from "../../../http3/qpack_decoder.ts";
import { readVarint, varintLengthAt } from "../../../http3/varint.ts";
import { errorMessage } from "../exchange_errors.ts";
import { type OpenStream, streamOpener } from "./deno_quic.ts";
import type { H3Request } from "./request.ts";

/** What every connection of a worker's h3 run shares: its requests and what the handshake offers. */
interface H3Run {
  readonly requests: readonly H3Request[];
  /** The name the server's certificate is checked against (`--sni`, else the URL's host). */
  readonly serverName: string;
  /** PEM roots trusted beside the defaults (`--cacert`), read once per worker. */
  readonly caCerts: Promise<string[]> | undefined;
  /** One UDP socket for every connection of the worker, made by the first: one receive loop drains all. */
  endpoint?: Deno.QuicEndpoint;
  /** Results' TLS session; `resume`: connections share `endpoint`, where Deno keeps servers' sessions. */
  readonly tls: { readonly resume: boolean; handshakes: number; resumed: number };
}

const ALPN = ["h3"];
const QPACK_PREFACES = [Uint8Array.of(STREAM_QPACK_ENCODER), Uint8Array.of(STREAM_QPACK_DECODER)];
export const IGNORE = () => {};
/** What every h3 handshake negotiates, for results (QUIC is TLS 1.3; Deno tells no cipher). */
export const H3_TLS = { client: "deno", alpn: "h3", version: "TLSv1.3", cipher: null } as const;

export class H3Connection {
  conn: Deno.QuicConn | null = null;
  openStream: OpenStream = () => Promise.reject(new Error("the connection is not open"));
  /** Why the connection ended, for the requests it ends: a kind and its message. */
  failKind: ErrorKind = "closed-early";
  failMessage = "the connection closed";
  openStreams = 0;
  maxOpenStreams = 0;
  readonly decoder = new QpackDecoder(0, 0);
  #opening: Promise<boolean> | null = null;
  #opens = 0;
  /** Our control and QPACK streams' writers, kept while the connection lives. */
  #critical: WritableStreamDefaultWriter<Uint8Array>[] = [];

  constructor(readonly id: number, readonly shared: ConnectionShared, readonly run: H3Run) {}

  get isOpen(): boolean {
    return this.conn !== null;
  }

  open(): Promise<boolean> {
    return this.#opening ??= this.#open().finally(() => this.#opening = null);
  }

  async #open(): Promise<boolean> {
    const shared = this.shared;
    const wait = shared.connectGate.acquire();
    if (wait !== undefined) await wait;
    const t0 = performance.now();
    let conn: Deno.QuicConn | null = null;
    const { run, run: { tls } } = this;
    try {
      const connecting = Deno.connectQuic({
        endpoint: tls.resume ? run.endpoint ??= new Deno.QuicEndpoint() : undefined,
        hostname: shared.hostname,
        port: shared.port,
        serverName: run.serverName,
        alpnProtocols: ALPN,
        caCerts: await run.caCerts,
        // A handshake nobody answers (a closed UDP port sends no error QUIC sees) ends here.
        maxIdleTimeout: shared.timeoutMs,
        keepAliveInterval: Math.max(1, Math.floor(shared.timeoutMs / 2)),
        zeroRtt: tls.resume,
      });
      // A connection at once is a resumed session's 0-RTT one, asked for only to count it: nothing is sent
      // before the handshake ends (0-RTT data can be replayed, and Deno does not say if the server took it).
      conn = await connecting;
      await conn.handshake;
      tls.handshakes++;
      if (!(connecting instanceof Promise)) tls.resumed++;
      this.#critical = await Promise.all([CONTROL_STREAM_PREFACE, ...QPACK_PREFACES].map(async (preface) => {
        const writer = (await conn!.createUnidirectionalStream()).getWriter();
        await writer.write(preface);
        return writer;
      }));
      this.openStream = await streamOpener(conn);
    } catch (err) {
      shared.connectGate.release();
      if (conn !== null) closeQuietly(conn, H3_NO_ERROR);
      if (!shared.stopping) {
        const [kind, message] = connectFailure(err, shared.timeoutMs, shared.hostname, shared.port);
        shared.recorder.recordError(performance.now(), kind, message);
      }
      return false;
    }
    shared.connectGate.release();
    const nowMs = performance.now();
    const us = (nowMs - t0) * 1000;
    shared.recorder.connected(nowMs, us, us);
    if (this.#opens++ > 0) shared.recorder.reconnected(nowMs);
    this.conn = conn;
    const opened = conn;
    opened.closed.then(
      (info) => this.#ended(opened, info.closeCode, info.reason),
      (err) => this.#ended(opened, -1, errorMessage(err)),
    );
    const peer = new WritableStream({
      write: (stream) => void this.#readPeerStream(opened, stream).catch(IGNORE),
    });
    opened.incomingUnidirectionalStreams.pipeTo(peer).catch(IGNORE);
    return true;
  }

  #ended(conn: Deno.QuicConn, code: number, reason: string): void {
    if (this.conn !== conn) return;
    this.conn = null;
    this.#critical = [];
    const name = h3ErrorName(code);
    const fail = (kind: ErrorKind, message: string) => (this.failKind = kind, this.failMessage = message);
    if (code < 0) fail("quic", `the QUIC connection failed: ${reason}`);
    else if (code === 0 || code === H3_NO_ERROR) {
      fail("closed-early", "the server closed the connection before the response ended");
    } else if (!name.startsWith("0x")) {
      fail("h3-protocol", `the server closed the connection: ${name}${reason ? ` (${reason})` : ""}`);
    } else fail("quic", `the server closed the connection: QUIC error ${name}`);
  }

  /** Ends the connection with an H3_* `code` of ours (a broken control or encoder stream; the run done). */
  #fail(conn: Deno.QuicConn, code: number, why: string): void {
    if (this.conn !== conn) return;
    this.#ended(conn, code, why);
    this.failMessage = `${h3ErrorName(code)}: ${why}`;
    closeQuietly(conn, code);
  }

  /** One of the server's unidirectional streams, by its type: control, QPACK encoder, or drained. */
  async #readPeerStream(conn: Deno.QuicConn, stream: Deno.QuicReceiveStream): Promise<void> {
    let type = -1;
    let control: H3FrameReader | null = null;
    for await (const chunk of stream) {
      let at = 0;
      if (type < 0) {
        // A stream type is at most 8 octets and arrives in the stream's first packet.
        if (chunk.length < varintLengthAt(chunk[0])) {
          return this.#fail(conn, H3_GENERAL_PROTOCOL_ERROR, "a short stream type");
        }
        type = readVarint(chunk, 0, chunk.length);
        at = varintLengthAt(chunk[0]);
        if (type === STREAM_CONTROL) control = new H3FrameReader(true);
      }
      if (control !== null) {
        while (at < chunk.length) {
          at = control.read(chunk, at, chunk.length);
          if (at < 0) return this.#fail(conn, -at, "on the server's control stream");
          if (control.event !== READ_FRAME) continue;
          if (control.type === FRAME_SETTINGS) {
            const { payload, payloadOff, payloadLen } = control;
            const r = readSettings(payload, payloadOff, payloadLen);
            if (r < 0) return this.#fail(conn, -r, "in the server's SETTINGS");
          } else if (control.type === FRAME_GOAWAY) this.#goaway(conn);
        }
      } else if (type === STREAM_QPACK_ENCODER) {
        const r = this.decoder.readEncoderStream(chunk, at, chunk.length);
        if (r < 0) return this.#fail(conn, qpackH3Code(r), `${qpackErrorName(r)} on the encoder stream`);
      }
    }
    if (control !== null) this.#fail(conn, H3_CLOSED_CRITICAL_STREAM, "the server closed its control stream");
  }

  /** The server's GOAWAY: new requests go on a new connection; this one closes a request timeout later. */
  #goaway(conn: Deno.QuicConn): void {
    if (this.conn !== conn) return;
    this.conn = null;
    const critical = this.#critical;
    setTimeout(() => {
      critical.length = 0;
      closeQuietly(conn, H3_NO_ERROR);
    }, this.shared.timeoutMs);
  }

  close(): void {
    if (this.conn !== null) this.#fail(this.conn, H3_NO_ERROR, "the connection was closed by the run");
  }
}

function closeQuietly(conn: Deno.QuicConn, code: number): void {
  try {
    conn.close({ closeCode: code, reason: "" });
  } catch { /* closed */ }
}

/** A connect's failure by kind: no handshake in time (a closed port too), a certificate, else connect. */
function connectFailure(err: unknown, timeoutMs: number, host: string, port: number): [ErrorKind, string] {
  const message = errorMessage(err);
  if (/timed out/i.test(message)) {
    return [
      "connect",
      `no QUIC handshake within ${timeoutMs} ms from ${host}:${port} (UDP: a closed port looks the same)`,
    ];
  }
  if (/certificate|tls|handshake|crypto/i.test(message)) return ["tls", message];
  return ["connect", message];
}
