/**
 * @module
 * What a connection needs of a socket, and the `Deno.connect` transport. A transport with its own pump may
 * also give the inline contract: the pump calls the connection back with the bytes read, in the same turn.
 */

/** Bytes one socket's reads may take in one turn, so a fast peer cannot starve timers or the stop. */
export const TURN_READ_BYTES = 256 * 1024;

/** Deno.Conn's read/write/close contract (a read pending when the socket closes fails). */
export interface TransportConn {
  read(buf: Uint8Array): Promise<number | null>;
  write(bytes: Uint8Array): Promise<number>;
  close(): void;
}

/** Called by a pump for an armed read, once per arming; true when it settled a promise (run first). */
export interface InlineReader {
  onRead(n: number | null): boolean;
  onReadError(err: unknown): boolean;
  /** Called once the socket has no more bytes for now, so a reader writes once for all its reads queued. */
  onDrained?(): void;
}

/** Fails `reader` in a microtask, as a closed socket's pending read fails (no closure in `armRead`). */
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

/** A connect that ends in `waiter`'s calls (epoll's), so a crowd's connects leave no garbage. */
export type CallbackConnect = (waiter: ConnectWaiter) => TransportConn | null;

/** The inline side of a socket, or null when it has only the promise contract. */
export function inlineOf(conn: TransportConn): InlineConn | null {
  return "armRead" in conn ? conn as InlineConn : null;
}

/** Plain TCP on Deno's sockets (http:; https: adds tls/'s client over it), its connect abortable. */
export const tcpTransport: Transport = async (hostname, port, signal) => {
  const conn = await Deno.connect({ hostname, port, transport: "tcp", signal });
  conn.setNoDelay(true);
  return conn;
};

/** Host and port to dial for a URL (brackets stripped from IPv6 literals), or `connectTo`'s. */
export function dialTarget(url: URL, connectTo?: { hostname: string; port: number }) {
  if (connectTo) return connectTo;
  const hostname = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const port = url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
  return { hostname, port };
}
