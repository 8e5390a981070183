/**
 * @module
 * One TLS connection of the epoll transport: an OpenSSL `SSL` on the socket's non-blocking fd, driven by
 * the epoll pump (transport/epoll_socket.ts). `SSL_connect`, `SSL_read` and `SSL_write` return what they did,
 * or
 * `-EAGAIN` when OpenSSL wants the socket readable or writable again (the socket is registered for both
 * edges, so the next edge retries), or another `-errno`. The `SSL` is created by its `SslOwner`
 * (tls/openssl_client.ts, which holds the `SSL_CTX` and the session cache) and freed here, once, on every
 * exit path; callers pass only their own `Uint8Array`s, whose lengths are bounded before each call.
 */
import { EAGAIN, MAX_IO_BYTES } from "../transport/epoll/ffi.ts";
import {
  BIO_CTRL_EOF,
  ECONNRESET,
  type LibSsl,
  SSL_CTRL_SET_READ_AHEAD,
  SSL_ERROR_SSL,
  SSL_ERROR_SYSCALL,
  SSL_ERROR_WANT_READ,
  SSL_ERROR_WANT_WRITE,
  SSL_ERROR_ZERO_RETURN,
  SSL_SHUTDOWN_BOTH,
  TLS_FAILED,
  TLS_TRUNCATED,
} from "./openssl_ffi.ts";
import { h2NotSelected } from "./options.ts";

/**
 * A read that took fewer octets from the socket than this emptied the socket's queue: OpenSSL 3's
 * read-ahead buffer, empty, is asked to fill 16,705 octets or more (its 16,712 minus up to 7 of alignment).
 */
const SHORT_PULL_BYTES = 16 * 1024;

/**
 * The out-parameters of `SSL_get0_alpn_selected` (a pointer, a length), shared by the isolate's
 * connections: each call reads them before the next can write them. MEMORY: four typed arrays of a
 * connection's own were about 800 octets of a crowd's connection.
 */
const ALPN_PTR = new BigUint64Array(1);
const ALPN_LEN = new Uint32Array(1);
const ALPN_PTR_OUT = new Uint8Array(ALPN_PTR.buffer);
const ALPN_LEN_OUT = new Uint8Array(ALPN_LEN.buffer);

/** What the first handshake negotiated (TlsSessionInfo's fields OpenSSL exposes). */
export interface SslNegotiated {
  alpn: string | null;
  version: string | null;
  cipher: string | null;
}

/** What a connection reports to the client that made it (tls/openssl_client.ts's `OpenSslClient`). */
export interface SslOwner {
  /** The thread's errno (an `SSL_ERROR_SYSCALL` names it). */
  errno(): number;
  /** `h2` is among the ALPN protocols offered: an h2 connection reads record by record (`handshake`). */
  readonly offersH2: boolean;
  /** `h2` is the only protocol offered: a handshake whose server selected another (or none) fails. */
  readonly requiresH2: boolean;
  /** The oldest queued OpenSSL error as text, the queue cleared ("no detail" when empty). */
  errorText(): string;
  /** Why a failed handshake failed, as an error whose message names the reason. */
  handshakeFailure(s: LibSsl, ssl: Deno.PointerObject, errno: number): Error;
  /** A handshake completed; `reused`: it resumed a session. */
  handshakeDone(reused: boolean): void;
  /** The connection's first bytes arrived (TLS 1.3 tickets come after the handshake): keep its session. */
  sessionArrived(ssl: Deno.PointerObject): void;
  /**
   * Called by `SslConn.free` once, with the `SSL` (marked shut down): the owner frees it or, when
   * `reusable` (its handshake completed and nothing failed), may clear it for the next connection.
   */
  released(ssl: Deno.PointerObject, reusable: boolean): void;
}

/** One TLS connection's `SSL`; every call after `free` is a closed-socket answer, never a use after free. */
export class SslConn {
  #ssl: Deno.PointerObject | null;
  /** Resumption on and this connection's session not yet offered to the cache. */
  #wantSession: boolean;
  /** The handshake completed and no call failed since: the `SSL` can be cleared for another connection. */
  #reusable = false;
  /** The socket BIO OpenSSL reads through, and the octets it had read from the socket after our last read. */
  #rbio: Deno.PointerValue = null;
  #pulled = 0;
  /**
   * OpenSSL held nothing (`SSL_has_pending` 0) when the next read starts: every socket read asks for a whole
   * buffer.
   */
  #emptyBuffer = false;
  /** The last read started with that empty buffer and took fewer octets from the socket than it asked for. */
  #shortPull = false;
  /** OpenSSL reads ahead (the context's default); off for HTTP/2, see `handshake`. */
  #readAhead = true;
  /** Why the last read or write that returned `-TLS_FAILED` failed (OpenSSL's reason). */
  failure = "";

  constructor(
    readonly owner: SslOwner,
    readonly s: LibSsl,
    ssl: Deno.PointerObject,
    resume: boolean,
  ) {
    this.#ssl = ssl;
    this.#wantSession = resume;
  }

  /**
   * 1 once the handshake is done, `-EAGAIN` while it waits for the socket; throws when it failed, or when
   * `h2` alone was offered and the server selected something else (the `SSL` still clean to reuse).
   */
  handshake(): number {
    const ssl = this.#ssl;
    if (ssl === null) throw new Deno.errors.BadResource("socket closed");
    const rc = this.s.SSL_connect(ssl);
    if (rc === 1) {
      this.#reusable = true;
      const h2 = this.owner.offersH2 && this.#chooseReads(ssl);
      this.owner.handshakeDone(this.s.SSL_session_reused(ssl) === 1);
      if (!h2 && this.owner.requiresH2) throw h2NotSelected(this.negotiated()?.alpn ?? null);
      return 1;
    }
    const code = this.s.SSL_get_error(ssl, rc);
    if (code === SSL_ERROR_WANT_READ || code === SSL_ERROR_WANT_WRITE) return -EAGAIN;
    throw this.owner.handshakeFailure(this.s, ssl, code === SSL_ERROR_SYSCALL ? this.owner.errno() : 0);
  }

  /**
   * An HTTP/2 connection reads one record per `SSL_read` (a header, then its body), and on until OpenSSL
   * finds the socket empty, as h2load and most TLS clients do; HTTP/1.1 keeps reading ahead (a whole
   * response in one system call). A server answers each stream of a burst with a record of its own, one
   * write after another: reading ahead took the first one or two of them, and the requests that replaced
   * them went out in a record each, which the server then decrypted one by one. Read record by record,
   * the rest of the burst has arrived by the time the socket is empty, and the replacements leave together
   * in one record (paired rounds: nginx spent 2-10% less per request, and loadlab less too). Set on
   * every handshake, as an `SSL` is reused for connections that may negotiate either protocol.
   */
  #chooseReads(ssl: Deno.PointerObject): boolean {
    const alpn = this.#alpnSelected(ssl);
    // "h2": two octets, 0x68 0x32.
    const h2 = alpn !== null && ALPN_LEN[0] === 2 &&
      new Deno.UnsafePointerView(alpn).getUint16() === (0x32 << 8 | 0x68);
    this.#readAhead = !h2;
    this.s.SSL_ctrl(ssl, SSL_CTRL_SET_READ_AHEAD, h2 ? 0n : 1n, null);
    return h2;
  }

  /** The protocol ALPN selected (its octets at the pointer, `ALPN_LEN[0]` of them), or null for none. */
  #alpnSelected(ssl: Deno.PointerObject): Deno.PointerValue {
    this.s.SSL_get0_alpn_selected(ssl, ALPN_PTR_OUT, ALPN_LEN_OUT);
    return Deno.UnsafePointer.create(ALPN_PTR[0]);
  }

  /** Decrypted bytes into `buf[0, length)`: count, 0 at end of stream, `-EAGAIN`, or `-errno`. */
  read(buf: Uint8Array, length = buf.length): number {
    const ssl = this.#ssl;
    if (ssl === null) return -ECONNRESET;
    if (length <= 0 || length > buf.length || length > MAX_IO_BYTES) throw new RangeError("read length");
    const startedEmpty = this.#emptyBuffer;
    this.#emptyBuffer = false;
    const rc = this.s.SSL_read(ssl, buf, length);
    if (this.#rbio === null) this.#rbio = this.s.SSL_get_rbio(ssl);
    const pulled = this.#rbio === null ? 0 : this.s.BIO_number_read(this.#rbio);
    this.#shortPull = startedEmpty && ((pulled - this.#pulled) >>> 0) < SHORT_PULL_BYTES &&
      pulled !== this.#pulled;
    this.#pulled = pulled;
    if (rc <= 0) return this.#failed(ssl, rc);
    if (this.#wantSession) {
      this.#wantSession = false;
      this.owner.sessionArrived(ssl);
    }
    return rc;
  }

  /**
   * After a read that returned data: 1 when nothing is left to read, neither in OpenSSL nor in the kernel;
   * 0 when OpenSSL holds more (decrypted or not) or reads record by record (HTTP/2: only a read that finds
   * nothing proves the socket empty); -1 when only the kernel's queue can tell. OpenSSL reads
   * ahead: with its buffer empty, each read it makes asks for a whole buffer (over 16 KiB), so a read
   * that took less took everything the socket had; only a burst that filled the buffer leaves the kernel
   * to be asked (`FIONREAD`), which costs a system call per response.
   */
  drained(): number {
    const ssl = this.#ssl;
    if (ssl === null || this.s.SSL_has_pending(ssl) !== 0) return 0;
    // Record by record, each read takes just one record: only `SSL_read`'s want-read proves the socket empty.
    if (!this.#readAhead) return 0;
    this.#emptyBuffer = true;
    return this.#shortPull ? 1 : -1;
  }

  /** Encrypts and sends `bytes` (a view): bytes taken, `-EAGAIN` when the socket is full, or `-errno`. */
  write(bytes: Uint8Array): number {
    const ssl = this.#ssl;
    if (ssl === null) return -ECONNRESET;
    const length = Math.min(bytes.length, MAX_IO_BYTES);
    if (length === 0) return 0;
    const rc = this.s.SSL_write(ssl, bytes, length);
    return rc > 0 ? rc : this.#failed(ssl, rc);
  }

  #failed(ssl: Deno.PointerObject, rc: number): number {
    const code = this.s.SSL_get_error(ssl, rc);
    if (code === SSL_ERROR_WANT_READ || code === SSL_ERROR_WANT_WRITE) return -EAGAIN;
    if (code === SSL_ERROR_ZERO_RETURN) return this.#truncated() ? -TLS_TRUNCATED : 0;
    this.#reusable = false;
    if (code === SSL_ERROR_SSL) {
      this.failure = this.owner.errorText();
      return -TLS_FAILED;
    }
    this.s.ERR_clear_error();
    const os = code === SSL_ERROR_SYSCALL ? this.owner.errno() : 0;
    return -(os > 0 ? os : ECONNRESET);
  }

  /**
   * At the end of stream: whether the server closed TCP without a close_notify. OpenSSL reports both
   * ends alike (`SSL_OP_IGNORE_UNEXPECTED_EOF`, kept: as a fatal error the close would also spoil the
   * session for resumption), but only a TCP close makes its socket BIO read the end of stream (`BIO_eof`):
   * a close_notify ends the reads before the socket's FIN is read.
   */
  #truncated(): boolean {
    if (this.#rbio === null || this.s.BIO_ctrl(this.#rbio, BIO_CTRL_EOF, 0n, null) === 0n) return false;
    this.#reusable = false;
    return true;
  }

  /** What the handshake negotiated (read once per run, off the hot path). */
  negotiated(): SslNegotiated | null {
    const ssl = this.#ssl;
    if (ssl === null) return null;
    const text = (p: Deno.PointerValue) => p === null ? null : new Deno.UnsafePointerView(p).getCString();
    const alpnPtr = this.#alpnSelected(ssl);
    const alpnLen = Math.min(ALPN_LEN[0], 255);
    const alpn = alpnPtr === null || alpnLen === 0
      ? null
      : new TextDecoder().decode(new Deno.UnsafePointerView(alpnPtr).getArrayBuffer(alpnLen));
    const cipher = this.s.SSL_get_current_cipher(ssl);
    return {
      alpn,
      version: text(this.s.SSL_get_version(ssl)),
      cipher: cipher === null ? null : text(this.s.SSL_CIPHER_get_name(cipher)),
    };
  }

  /**
   * Hands the `SSL` back to its owner (before its socket's fd is closed); idempotent. A connection whose
   * handshake completed and that nothing failed sends its close_notify first (`SSL_shutdown`, one write,
   * never waited for: RFC 8446 section 6.1 requires one before closing, and without it a server sees a
   * truncation), as wrk does. Then marked shut down either way: OpenSSL otherwise marks the session of a
   * connection freed without a close_notify (a failed one) not resumable (the session cache may hold that
   * very session), and `SSL_clear` would drop it.
   */
  free(): void {
    const ssl = this.#ssl;
    if (ssl === null) return;
    this.#ssl = null;
    // 1 or 0 (sent; the peer's not awaited), or -1 when the socket is full or gone: nothing more to do.
    if (this.#reusable && this.s.SSL_shutdown(ssl) < 0) this.s.ERR_clear_error();
    this.s.SSL_set_shutdown(ssl, SSL_SHUTDOWN_BOTH);
    this.owner.released(ssl, this.#reusable);
  }
}
