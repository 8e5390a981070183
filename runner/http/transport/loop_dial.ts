/**
 * @module
 * What the epoll and io_uring loops do alike to dial their run's address: a non-blocking socket (bound to a
 * source address when given), then the connect, each error saying what was attempted. Once per connect.
 */
import { EINPROGRESS, type EpollSys } from "./epoll/ffi.ts";
import type { SockAddr } from "./sock_addr.ts";
import { connectError, notAttemptedError } from "./epoll/errors.ts";

/** A non-blocking TCP socket for `addr` (bound to `source`), or the error of a connect never attempted. */
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

/** Starts `sock`'s connect: 0 (connected) or -EINPROGRESS, else its error (the socket closed). */
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
