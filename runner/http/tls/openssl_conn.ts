/**
 * @module
 * One TLS connection of the epoll transport: an OpenSSL `SSL` on the socket's non-blocking fd. Calls return
 * what they did, `-EAGAIN` or `-errno`; the `SSL` is freed here once, on every exit path.
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
import { h2NotSelected } from "./material.ts";
import type { TlsSessionInfo } from "./deno_tls.ts";

/** A read from empty that took fewer octets than this emptied the socket (read-ahead asks for 16,705+). */
const SHORT_PULL_BYTES = 16 * 1024;

/** `SSL_get0_alpn_selected`'s out-parameters, shared by the isolate's connections (read before reuse). */
const ALPN_PTR = new BigUint64Array(1);
const ALPN_LEN = new Uint32Array(1);
const ALPN_PTR_OUT = new Uint8Array(ALPN_PTR.buffer);
const ALPN_LEN_OUT = new Uint8Array(ALPN_LEN.buffer);

export type SslNegotiated = Pick<TlsSessionInfo, "alpn" | "version" | "cipher">;

export interface SslOwner {
  errno(): number;
  readonly offersH2: boolean;
  /** `h2` is the only protocol offered: a handshake whose server selected another (or none) fails. */
  readonly requiresH2: boolean;
  errorText(): string;
  handshakeFailure(s: LibSsl, ssl: Deno.PointerObject, errno: number): Error;
  handshakeDone(reused: boolean): void;
  /** The connection's first bytes arrived (TLS 1.3 tickets come after the handshake): keep its session. */
  sessionArrived(ssl: Deno.PointerObject): void;
  /** Takes the `SSL` back once (marked shut down): frees it, or clears it for reuse when `reusable`. */
  released(ssl: Deno.PointerObject, reusable: boolean): void;
}

/** One TLS connection's `SSL`; every call after `free` is a closed-socket answer, never a use after free. */
export class SslConn {
  #ssl: Deno.PointerObject | null;
  #wantSession: boolean;
  #reusable = false;
  /** The socket BIO, and the octets it had read after our last read. */
  #rbio: Deno.PointerValue = null;
  #pulled = 0;
  /** OpenSSL held nothing when the next read starts. */
  #emptyBuffer = false;
  /** The last read started empty and took fewer octets than it asked for. */
  #shortPull = false;
  #readAhead = true;
  failure = "";

  constructor(readonly owner: SslOwner, readonly s: LibSsl, ssl: Deno.PointerObject, resume: boolean) {
    this.#ssl = ssl;
    this.#wantSession = resume;
  }

  /** 1 once the handshake is done, `-EAGAIN` while it waits; throws on failure or an unselected sole `h2`. */
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

  /** HTTP/2 reads one record per `SSL_read` (as h2load), HTTP/1.1 reads ahead; set per handshake. */
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

  /** After a read with data: 1 when nothing is left, 0 when OpenSSL holds more, -1: ask `FIONREAD`. */
  drained(): number {
    const ssl = this.#ssl;
    if (ssl === null || this.s.SSL_has_pending(ssl) !== 0) return 0;
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

  /** At the end of stream: whether the server closed TCP without a close_notify (`BIO_eof`). */
  #truncated(): boolean {
    if (this.#rbio === null || this.s.BIO_ctrl(this.#rbio, BIO_CTRL_EOF, 0n, null) === 0n) return false;
    this.#reusable = false;
    return true;
  }

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
   * Hands the `SSL` back to its owner before the fd closes; idempotent. A healthy connection sends its
   * close_notify first (RFC 8446 6.1); marked shut down either way, so its session resumes.
   */
  free(): void {
    const ssl = this.#ssl;
    if (ssl === null) return;
    this.#ssl = null;
    if (this.#reusable && this.s.SSL_shutdown(ssl) < 0) this.s.ERR_clear_error();
    this.s.SSL_set_shutdown(ssl, SSL_SHUTDOWN_BOTH);
    this.owner.released(ssl, this.#reusable);
  }
}
