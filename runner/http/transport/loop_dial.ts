/**
 * @module
 * What both event loops of a transport (transport/epoll_transport.ts, transport/uring_transport.ts) do
 * alike to dial their run's address: a non-blocking socket made unless the loop is closed (bound to a
 * source address when the run spreads over several), then the connect started, a failure closing the socket;
 * each error says what was attempted (transport/epoll_errors.ts). What differs stays in each loop: epoll
 * registers the socket in its set and may start TLS on it, io_uring gives the socket's slot a generation and
 * polls for the connect's end. Once per connect, never per message.
 */
import { EINPROGRESS, type EpollSys } from "./epoll/ffi.ts";
import type { SockAddr } from "./sock_addr.ts";
import { connectError, notAttemptedError } from "./epoll/errors.ts";

/**
 * A non-blocking TCP socket for `addr`, bound to `source` when given (`--source-addresses`), or the error
 * a connect fails with before anything was attempted: the loop (`closedLoop` names it) is closed, no
 * socket could be made, or the source address could not be bound (not this host's).
 */
export function loopSocket(
  sys: EpollSys,
  addr: SockAddr,
  closedLoop: string | null,
  source: SockAddr | null = null,
): number | Error {
  if (closedLoop !== null) {
    return new Deno.errors.BadResource(`never attempted: the ${closedLoop} loop was closed`);
  }
  const fd = sys.tcpSocket(addr.family);
  if (fd < 0) return notAttemptedError("socket", -fd, addr);
  if (source === null) return fd;
  const bound = sys.bindSource(fd, source);
  if (bound >= 0) return fd;
  sys.close(fd);
  return notAttemptedError(`bind to ${source.text.replace(/:0$/, "")}`, -bound, addr);
}

/**
 * Starts `sock`'s connect to `addr`: 0 (connected at once) or -EINPROGRESS, else its error (the socket
 * closed).
 */
export function startConnect(
  sys: EpollSys,
  addr: SockAddr,
  sock: { fd: number; close(): void },
): number | Error {
  const started = sys.connect(sock.fd, addr);
  if (started >= 0 || started === -EINPROGRESS) return started;
  sock.close();
  return connectError(-started, addr);
}
