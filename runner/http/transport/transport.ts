/**
 * @module
 * What a connection needs of a socket, and the `Deno.connect` transport. Every transport gives
 * Deno.Conn's promise contract (read into the caller's buffer, write, close; a read pending when the
 * socket closes fails). A transport that runs its own event pump (the epoll transport) may also give
 * the inline contract: the pump calls the connection back with the bytes it read, in the same turn,
 * instead of resolving a promise per read, and writes happen at once. The transport is chosen once
 * per run (transport/choice.ts), like wrk's function table.
 */

/**
 * Bytes one socket's reads may take in one turn before the event loop gets one: a peer that sends as
 * fast as we read (endless tiny HTTP/2 frames) would otherwise keep the reads going back to back (the
 * epoll pump's loop; over TLS Deno's reads resolving at once from what rustls holds), and the worker's
 * timers, its stop message and signals would never run. Four reads of an h2 connection's 64 KiB buffer:
 * a healthy socket runs dry long before, and the check is one compare per read.
 */
export const TURN_READ_BYTES = 256 * 1024;

/** Deno.Conn's read/write/close contract (a read pending when the socket closes fails). */
export interface TransportConn {
  read(buf: Uint8Array): Promise<number | null>;
  write(bytes: Uint8Array): Promise<number>;
  close(): void;
}

/**
 * Called by a transport's pump for an armed read, once per arming: bytes read (null at end of
 * stream) or the failure (also when the socket is closed while armed). Each returns true when it
 * settled a promise, so the pump lets the event loop run that continuation before its next round.
 */
export interface InlineReader {
  onRead(n: number | null): boolean;
  onReadError(err: unknown): boolean;
  /**
   * Optional: called by the pump once the socket has no more bytes for now (after one or more
   * `onRead`s), so a reader can write once for everything those reads asked for (HTTP/2 streams).
   */
  onDrained?(): void;
}

/**
 * Fails `reader` in a microtask, as a read pending on a socket that closed would fail. A function of its
 * own: a closure inside `armRead` would make V8 allocate its captured context on every arm, not only
 * on a closed socket's.
 */
export function failReadClosed(reader: InlineReader): void {
  queueMicrotask(() => reader.onReadError(new Deno.errors.BadResource("socket closed")));
}

/** A socket with the inline contract besides the promise one (the epoll transport's). */
export interface InlineConn extends TransportConn {
  /** Arms one read into `buf`; `reader` is called from the pump (never from inside this call). */
  armRead(buf: Uint8Array, reader: InlineReader): void;
  /** Writes what the kernel takes now: bytes written (0 when its buffer is full); throws when it fails. */
  writeNow(bytes: Uint8Array): number;
  /** `performance.now()`, from a cheaper clock read when the transport has one. */
  nowMs(): number;
}

/** Opens the socket; TCP, TLS or epoll, picked once for a run. `signal` aborts a connect that hangs. */
export type Transport = (hostname: string, port: number, signal: AbortSignal) => Promise<TransportConn>;

/** Told once how a callback connect ended: with the socket, or with why it failed (its socket closed). */
export interface ConnectWaiter {
  connected(sock: TransportConn): void;
  connectFailed(err: unknown): void;
}

/**
 * A connect of the run's address that ends in `waiter`'s calls instead of a promise (the epoll transport's):
 * no promise, no async frame and no abort listener per connect, so a crowd opening at once leaves no
 * garbage behind its connects. `waiter` may be called inside this call (a connect done at once, or failed
 * before anything was attempted). Returns the socket while it connects (closing it aborts the connect).
 */
export type CallbackConnect = (waiter: ConnectWaiter) => TransportConn | null;

/** The inline side of a socket, or null when it has only the promise contract. */
export function inlineOf(conn: TransportConn): InlineConn | null {
  return "armRead" in conn ? conn as InlineConn : null;
}

/** The transport for a URL: TCP for http, TCP then TLS for https (so both connects are abortable). */
export function transportFor(url: URL): Transport {
  const tcp = async (hostname: string, port: number, signal: AbortSignal) => {
    const conn = await Deno.connect({ hostname, port, transport: "tcp", signal });
    conn.setNoDelay(true);
    return conn;
  };
  if (url.protocol === "https:") {
    const serverName = url.hostname.replace(/^\[(.*)\]$/, "$1");
    return async (hostname, port, signal) =>
      Deno.startTls(await tcp(hostname, port, signal), { hostname: serverName });
  }
  return tcp;
}

/** Host and port to dial for a URL (brackets stripped from IPv6 literals), or `connectTo`'s. */
export function dialTarget(url: URL, connectTo?: { hostname: string; port: number }): {
  hostname: string;
  port: number;
} {
  if (connectTo) return connectTo;
  const hostname = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const port = url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
  return { hostname, port };
}
