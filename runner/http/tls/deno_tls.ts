/**
 * @module
 * TLS over the `deno` transport: `Deno.startTls` (rustls) on a socket we dial, or `node:tls` where Deno has
 * no switch (`--insecure`, a client certificate with our own SNI). Neither client resumes sessions.
 */
import type * as nodeTls from "node:tls";
import { isIP } from "../../source_addresses.ts";
import type { Transport, TransportConn } from "../transport/transport.ts";
import { beyondDenoTls, h2NotSelected, h2Required, loadTlsMaterial, type TlsMaterial } from "./material.ts";
import type { TlsOptions } from "./options.ts";
import { closeQuietly } from "../../../system/descriptors.ts";
import { errorMessage } from "../exchange_errors.ts";
import type { RunResult } from "../../../results/mod.ts";

/** What a run's TLS handshakes negotiated, as results hold it (`tls`: client, ALPN, version, resumption). */
export type TlsSessionInfo = NonNullable<RunResult["tls"]>;

type Negotiated = Pick<TlsSessionInfo, "client" | "alpn" | "version" | "cipher" | "insecure">;

/** Recorded when resumption is on and the `deno` transport ran: it cannot resume, and says so. */
export const RESUME_UNAVAILABLE =
  "session resumption (--tls-resume on) is not available on the deno transport: " +
  "neither Deno.startTls nor node:tls exposes a session cache, so every connection was a full handshake " +
  "(--transport epoll resumes through OpenSSL)";

interface TlsTransportConn extends TransportConn {
  readonly tlsMs: number;
}

interface TlsTransport {
  transport: Transport;
  info(): TlsSessionInfo | null;
}

const ALPN = ["http/1.1"];

/** The TLS transport for `serverName` (SNI, verified name, its `auth` pair); `alpn`: protocols offered. */
export function tlsTransport(
  serverName: string,
  options: TlsOptions | undefined,
  alpn: readonly string[] = ALPN,
): TlsTransport {
  const beyond = beyondDenoTls(options);
  if (beyond !== null) throw new Error(beyond);
  const material = loadTlsMaterial(options, serverName);
  const insecure = options?.insecure ?? false;
  const useNode = insecure || material.cert !== undefined;
  let first: Negotiated | null = null;
  const dial: TlsDial = { serverName, insecure, material, alpn, note: (info) => first ??= info };
  const resumeNote = options?.resume === false ? {} : { resumeNote: RESUME_UNAVAILABLE };
  const transport: Transport = useNode
    ? (hostname, port, signal) => nodeConnect(dial, hostname, port, signal)
    : (hostname, port, signal) => denoConnect(dial, hostname, port, signal);
  const info = () =>
    first === null ? null : { ...first, resume: false, handshakes: null, resumed: null, ...resumeNote };
  return { transport, info };
}

/** What every handshake of a TLS transport uses, and `note`, told what each negotiated. */
interface TlsDial {
  serverName: string;
  insecure: boolean;
  material: TlsMaterial;
  alpn: readonly string[];
  note(info: Negotiated): void;
}

async function denoConnect(dial: TlsDial, hostname: string, port: number, signal: AbortSignal) {
  const { serverName, material, note, alpn } = dial;
  const tcp = await Deno.connect({ hostname, port, transport: "tcp", signal });
  tcp.setNoDelay(true);
  const startMs = performance.now();
  const tls = await Deno.startTls(tcp, {
    hostname: serverName,
    caCerts: material.caCerts,
    alpnProtocols: [...alpn],
  });
  // The handshake cannot take the signal; closing the socket on abort fails it instead.
  const onAbort = () => tls.close();
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    if (signal.aborted) throw new Deno.errors.TimedOut("connect aborted");
    const { alpnProtocol } = await tls.handshake();
    note({ client: "deno", alpn: alpnProtocol, version: null, cipher: null, insecure: false });
    if (alpnProtocol !== "h2" && h2Required(alpn)) throw h2NotSelected(alpnProtocol);
  } catch (err) {
    closeQuietly(tls);
    throw signal.aborted ? err : handshakeError(err);
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
  return Object.assign(tls, { tlsMs: performance.now() - startMs });
}

function nodeConnect(dial: TlsDial, hostname: string, port: number, signal: AbortSignal) {
  const { serverName, insecure, material, note, alpn } = dial;
  return new Promise<TlsTransportConn>((resolve, reject) => {
    let startMs = performance.now();
    const socket = process.getBuiltinModule("node:tls").connect({
      host: hostname,
      port,
      // node:tls sends no SNI for an IP literal (and refuses one as servername); it verifies the host then.
      ...(isIP(serverName) === 0 ? { servername: serverName } : {}),
      rejectUnauthorized: !insecure,
      ALPNProtocols: [...alpn],
      ...(material.caCerts.length > 0 ? { ca: material.caCerts } : {}),
      ...(material.cert !== undefined ? { cert: material.cert, key: material.key } : {}),
    });
    const fail = (err: unknown) => {
      signal.removeEventListener("abort", onAbort);
      socket.destroy();
      reject(err);
    };
    const onAbort = () => fail(new Deno.errors.TimedOut("connect aborted"));
    signal.addEventListener("abort", onAbort, { once: true });
    let connected = false;
    socket.once("connect", () => {
      connected = true;
      startMs = performance.now();
      socket.setNoDelay(true);
    });
    const failed = (err: unknown) => fail(connected ? handshakeError(err) : err);
    socket.once("error", failed);
    socket.once("secureConnect", () => {
      signal.removeEventListener("abort", onAbort);
      socket.off("error", failed);
      const cipher = socket.getCipher?.();
      const selected = typeof socket.alpnProtocol === "string" ? socket.alpnProtocol : null;
      note({
        client: "node:tls",
        alpn: selected,
        version: socket.getProtocol?.() ?? null,
        cipher: cipher?.standardName ?? cipher?.name ?? null,
        insecure,
      });
      if (selected !== "h2" && h2Required(alpn)) return fail(h2NotSelected(selected));
      resolve(new NodeTlsConn(socket, performance.now() - startMs));
    });
  });
}

/** rustls's validity failures name the verification time: only the reason is kept, so messages stay few. */
const DATED_VALIDITY = /certificate (not valid yet|expired): verification time/i;

/** A handshake's failure, counted as `tls` as the epoll transport's is (not as a connect failure). */
function handshakeError(err: unknown): unknown {
  const message = errorMessage(err);
  const dated = DATED_VALIDITY.exec(message);
  if (dated !== null) {
    const reason = dated[1].toLowerCase() === "expired" ? "Expired" : "NotValidYet";
    return new Deno.errors.InvalidData(`invalid peer certificate: ${reason}`, { cause: err });
  }
  if (err instanceof Deno.errors.InvalidData || /certificate|tls|handshake/i.test(message)) return err;
  return new Deno.errors.InvalidData(`tls handshake failed: ${message}`, { cause: err });
}

/** A node:tls failure after the handshake: a socket error stays, a TLS one becomes `InvalidData`. */
function sessionError(err: unknown): unknown {
  const code = (err as { code?: unknown })?.code;
  const message = errorMessage(err);
  if (err instanceof Deno.errors.InvalidData || (typeof code === "string" && /^E[A-Z]+$/.test(code))) {
    return err;
  }
  if (/close_notify|unexpected end|EOF/i.test(message)) return err;
  return new Deno.errors.InvalidData(`tls session failed: ${message}`, { cause: err });
}

/** How long a closed node:tls socket may take to send its close_notify before it is destroyed anyway. */
const CLOSE_NOTIFY_MS = 1000;

/** A node:tls socket with Deno.Conn's read/write/close contract (transport/transport.ts). */
class NodeTlsConn implements TlsTransportConn {
  #chunks: Uint8Array[] = [];
  #offset = 0;
  #ended = false;
  #failure: unknown = null;
  #pending: { buf: Uint8Array; resolve: (n: number | null) => void; reject: (e: unknown) => void } | null =
    null;

  constructor(private readonly socket: nodeTls.TLSSocket, readonly tlsMs: number) {
    socket.on("data", (chunk: Uint8Array) => {
      this.#chunks.push(chunk);
      this.#settle();
    });
    const ended = () => {
      this.#ended = true;
      this.#settle();
    };
    socket.on("end", ended);
    socket.on("error", (err: unknown) => {
      this.#failure = sessionError(err);
      this.#settle();
    });
    socket.on("close", ended);
  }

  read(buf: Uint8Array): Promise<number | null> {
    if (this.#pending) return Promise.reject(new Error("a read is already pending"));
    return new Promise((resolve, reject) => {
      this.#pending = { buf, resolve, reject };
      this.#settle();
    });
  }

  write(bytes: Uint8Array): Promise<number> {
    // Copied: the caller reuses its buffer once the promise settles, the socket may still hold it.
    return new Promise((resolve, reject) => {
      this.socket.write(bytes.slice(), (err?: Error | null) => err ? reject(err) : resolve(bytes.length));
    });
  }

  /** Ends with a close_notify (RFC 8446 6.1), destroying the socket once sent or after `CLOSE_NOTIFY_MS`. */
  close(): void {
    this.#failure ??= new Deno.errors.BadResource("connection closed");
    this.#settle();
    const socket = this.socket;
    if (socket.destroyed || !socket.writable) return void socket.destroy();
    const timer = setTimeout(() => socket.destroy(), CLOSE_NOTIFY_MS);
    Deno.unrefTimer(timer);
    socket.end(() => {
      clearTimeout(timer);
      socket.destroy();
    });
  }

  #settle(): void {
    const pending = this.#pending;
    if (pending === null) return;
    if (this.#chunks.length > 0) {
      this.#pending = null;
      pending.resolve(this.#take(pending.buf));
    } else if (this.#failure !== null) {
      this.#pending = null;
      pending.reject(this.#failure);
    } else if (this.#ended) {
      this.#pending = null;
      pending.resolve(null);
    }
  }

  #take(buf: Uint8Array): number {
    let n = 0;
    while (n < buf.length && this.#chunks.length > 0) {
      const chunk = this.#chunks[0];
      const count = Math.min(buf.length - n, chunk.length - this.#offset);
      buf.set(chunk.subarray(this.#offset, this.#offset + count), n);
      n += count;
      this.#offset += count;
      if (this.#offset === chunk.length) {
        this.#chunks.shift();
        this.#offset = 0;
      }
    }
    return n;
  }
}
