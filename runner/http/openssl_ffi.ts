/**
 * @module
 * TLS for the epoll transport: the system's OpenSSL 3 (`libssl.so.3`) through `Deno.dlopen`, the only
 * module that touches libssl. One `OpenSslClient` per worker holds the `SSL_CTX` (verification with the
 * system CA store or `--cacert`, a client certificate, `--insecure`, ALPN `http/1.1`, TLS 1.2 or later);
 * each connection gets an `SslConn` on the socket's non-blocking fd, driven by the epoll pump:
 * `SSL_connect`, `SSL_read` and `SSL_write` return what they did, or `-EAGAIN` when OpenSSL wants the
 * socket readable or writable again (the socket is registered for both edges, so the next edge retries),
 * or another `-errno`. Every pointer is created and freed here (`free` on every exit path of a socket,
 * idempotent); callers pass only fds and their own `Uint8Array`s, whose lengths are bounded before each
 * call. Signatures use `i32`/`u32` on the hot calls so V8 takes its fast call path.
 */
import { EAGAIN, MAX_IO_BYTES } from "./epoll_ffi.ts";
import type { TlsOptions } from "./tls_options.ts";

const SYMBOLS = {
  TLS_client_method: { parameters: [], result: "pointer" },
  SSL_CTX_new: { parameters: ["pointer"], result: "pointer" },
  SSL_CTX_free: { parameters: ["pointer"], result: "void" },
  SSL_CTX_set_verify: { parameters: ["pointer", "i32", "pointer"], result: "void" },
  SSL_CTX_set_default_verify_paths: { parameters: ["pointer"], result: "i32" },
  SSL_CTX_set_default_verify_dir: { parameters: ["pointer"], result: "i32" },
  SSL_CTX_load_verify_locations: { parameters: ["pointer", "buffer", "pointer"], result: "i32" },
  SSL_CTX_use_certificate_chain_file: { parameters: ["pointer", "buffer"], result: "i32" },
  SSL_CTX_use_PrivateKey_file: { parameters: ["pointer", "buffer", "i32"], result: "i32" },
  SSL_CTX_check_private_key: { parameters: ["pointer"], result: "i32" },
  SSL_CTX_set_alpn_protos: { parameters: ["pointer", "buffer", "u32"], result: "i32" },
  SSL_CTX_set_options: { parameters: ["pointer", "u64"], result: "u64" },
  SSL_CTX_ctrl: { parameters: ["pointer", "i32", "i64", "pointer"], result: "i64" },
  SSL_new: { parameters: ["pointer"], result: "pointer" },
  SSL_free: { parameters: ["pointer"], result: "void" },
  SSL_set_fd: { parameters: ["pointer", "i32"], result: "i32" },
  SSL_ctrl: { parameters: ["pointer", "i32", "i64", "buffer"], result: "i64" },
  SSL_set1_host: { parameters: ["pointer", "buffer"], result: "i32" },
  SSL_connect: { parameters: ["pointer"], result: "i32" },
  SSL_read: { parameters: ["pointer", "buffer", "i32"], result: "i32" },
  SSL_write: { parameters: ["pointer", "buffer", "i32"], result: "i32" },
  SSL_get_error: { parameters: ["pointer", "i32"], result: "i32" },
  SSL_get_verify_result: { parameters: ["pointer"], result: "i64" },
  SSL_get_version: { parameters: ["pointer"], result: "pointer" },
  SSL_get_current_cipher: { parameters: ["pointer"], result: "pointer" },
  SSL_CIPHER_get_name: { parameters: ["pointer"], result: "pointer" },
  SSL_get0_alpn_selected: { parameters: ["pointer", "buffer", "buffer"], result: "void" },
  ERR_get_error: { parameters: [], result: "u64" },
  ERR_error_string_n: { parameters: ["u64", "buffer", "u32"], result: "void" },
  ERR_clear_error: { parameters: [], result: "void" },
} as const satisfies Deno.ForeignLibraryInterface;

type LibSsl = Deno.DynamicLibrary<typeof SYMBOLS>["symbols"];

const SSL_VERIFY_NONE = 0;
const SSL_VERIFY_PEER = 1;
const SSL_FILETYPE_PEM = 1;
const SSL_CTRL_MODE = 33;
const SSL_CTRL_SET_MIN_PROTO_VERSION = 123;
const TLS1_2_VERSION = 0x303;
const SSL_CTRL_SET_TLSEXT_HOSTNAME = 55;
const TLSEXT_NAMETYPE_HOST_NAME = 0;
/** Partial writes (a write returns what went out) and retries from another view of the same bytes. */
const SSL_MODE_PARTIAL_MOVING = 0x1 | 0x2;
/** A peer's close without close_notify reads as end of stream (as plain TCP and Deno's client do). */
const SSL_OP_IGNORE_UNEXPECTED_EOF = 1n << 7n;
const SSL_ERROR_WANT_READ = 2;
const SSL_ERROR_WANT_WRITE = 3;
const SSL_ERROR_SYSCALL = 5;
const SSL_ERROR_ZERO_RETURN = 6;
const ECONNRESET = 104;
/** `X509_V_ERR_*` codes by the reason results count them under (x509_vfy.h). */
const VERIFY_REASONS: Record<number, string> = {
  9: "certificate is not yet valid (expired)",
  10: "certificate has expired",
  2: "unable to get issuer certificate (unknown ca)",
  18: "self-signed certificate (unknown ca)",
  19: "self-signed certificate in chain (unknown ca)",
  20: "unable to get local issuer certificate (unknown ca)",
  21: "unable to verify the first certificate (unknown ca)",
  62: "hostname mismatch",
  64: "IP address mismatch (hostname)",
};

/** The message of an `SSL_get_verify_result` code, worded so `verifyFailureReason` names its reason. */
export function verifyResultMessage(code: number): string {
  return VERIFY_REASONS[code] ?? `certificate verify failed (X509_V_ERR ${code})`;
}

let loaded: LibSsl | null = null;

/** The library opened: `LOADLAB_LIBSSL` (another OpenSSL 3 build, or a missing one to test the fallback). */
function libsslName(): string {
  try {
    return Deno.env.get("LOADLAB_LIBSSL") || "libssl.so.3";
  } catch {
    return "libssl.so.3"; // no --allow-env: the system's
  }
}

/** Opens libssl once per isolate (throws when FFI is not permitted or libssl 3 is missing). */
function libssl(): LibSsl {
  if (loaded === null) loaded = Deno.dlopen(libsslName(), SYMBOLS).symbols;
  return loaded;
}

/** Why libssl cannot be used here, or null. */
export function opensslUnavailableReason(): string | null {
  try {
    libssl();
    return null;
  } catch (err) {
    return `${libsslName()} not loadable through FFI: ${err instanceof Error ? err.message : String(err)}`;
  }
}

const cstr = (s: string) => new TextEncoder().encode(s + "\0");

/** What the first handshake negotiated (TlsSessionInfo's fields OpenSSL exposes). */
export interface SslNegotiated {
  alpn: string | null;
  version: string | null;
  cipher: string | null;
}

/** One worker's `SSL_CTX` and the scratch buffers of its connections (never shared between isolates). */
export class OpenSslClient {
  readonly #s = libssl();
  readonly #ctx: Deno.PointerObject;
  readonly #name: Uint8Array;
  readonly #sni: boolean;
  readonly #errText = new Uint8Array(256);
  #closed = false;
  /** `SSL`s made and not yet freed (zero after a run: the leak check). */
  #live = 0;

  /**
   * `serverName`: sent as SNI (unless an IP literal) and verified; `errno`: the thread's errno (an
   * `SSL_ERROR_SYSCALL` names it). Throws when a file is refused.
   */
  constructor(serverName: string, readonly options: TlsOptions | undefined, readonly errno: () => number) {
    const s = this.#s;
    const ctx = s.SSL_CTX_new(s.TLS_client_method());
    if (ctx === null) throw new Error(`SSL_CTX_new failed: ${this.#lastError()}`);
    this.#ctx = ctx;
    try {
      this.#configure(options);
    } catch (err) {
      s.SSL_CTX_free(ctx);
      throw err;
    }
    this.#name = cstr(serverName);
    this.#sni = !/^[\d.]+$/.test(serverName) && !serverName.includes(":");
  }

  #configure(options: TlsOptions | undefined): void {
    const s = this.#s;
    const ctx = this.#ctx;
    const fail = (what: string) => {
      throw new Error(`${what}: ${this.#lastError()}`);
    };
    s.SSL_CTX_set_verify(ctx, options?.insecure ? SSL_VERIFY_NONE : SSL_VERIFY_PEER, null);
    // The system's roots: the whole bundle parsed at start (50-120 ms of CPU per worker here), or, when
    // --cacert names the roots a test target needs, only the hashed directory, looked up lazily.
    const system = options?.caFile === undefined
      ? s.SSL_CTX_set_default_verify_paths(ctx)
      : s.SSL_CTX_set_default_verify_dir(ctx);
    if (system !== 1) fail("the system CA store");
    if (
      options?.caFile !== undefined && s.SSL_CTX_load_verify_locations(ctx, cstr(options.caFile), null) !== 1
    ) {
      fail(`--cacert ${options.caFile}`);
    }
    if (options?.certFile !== undefined && options.keyFile !== undefined) {
      if (s.SSL_CTX_use_certificate_chain_file(ctx, cstr(options.certFile)) !== 1) {
        fail(`--cert ${options.certFile}`);
      }
      if (s.SSL_CTX_use_PrivateKey_file(ctx, cstr(options.keyFile), SSL_FILETYPE_PEM) !== 1) {
        fail(`--key ${options.keyFile}`);
      }
      if (s.SSL_CTX_check_private_key(ctx) !== 1) fail(`--key ${options.keyFile} does not match --cert`);
    }
    const alpn = new Uint8Array([8, ...new TextEncoder().encode("http/1.1")]);
    if (s.SSL_CTX_set_alpn_protos(ctx, alpn, alpn.length) !== 0) fail("ALPN");
    s.SSL_CTX_set_options(ctx, SSL_OP_IGNORE_UNEXPECTED_EOF);
    s.SSL_CTX_ctrl(ctx, SSL_CTRL_MODE, BigInt(SSL_MODE_PARTIAL_MOVING), null);
    s.SSL_CTX_ctrl(ctx, SSL_CTRL_SET_MIN_PROTO_VERSION, BigInt(TLS1_2_VERSION), null);
  }

  /**
   * The ALPN protocols offered, in order of preference (replacing `http/1.1`): `["h2"]` for HTTP/2,
   * `["h2", "http/1.1"]` to let the server choose.
   */
  setAlpn(protocols: readonly string[]): void {
    const names = protocols.map((p) => new TextEncoder().encode(p));
    const wire = new Uint8Array(names.reduce((sum, n) => sum + 1 + n.length, 0));
    let at = 0;
    for (const name of names) {
      wire[at++] = name.length;
      wire.set(name, at);
      at += name.length;
    }
    if (this.#s.SSL_CTX_set_alpn_protos(this.#ctx, wire, wire.length) !== 0) {
      throw new Error(`ALPN ${protocols.join(",")}: ${this.#lastError()}`);
    }
  }

  /** The oldest queued OpenSSL error as text (the queue cleared), or "no detail". */
  #lastError(): string {
    const code = this.#s.ERR_get_error();
    this.#s.ERR_clear_error();
    if (code === 0n) return "no detail";
    this.#errText.fill(0);
    this.#s.ERR_error_string_n(code, this.#errText, this.#errText.length);
    const end = this.#errText.indexOf(0);
    return new TextDecoder().decode(this.#errText.subarray(0, end < 0 ? this.#errText.length : end));
  }

  /** A connection on `fd` (connected TCP, non-blocking); null when OpenSSL refuses (out of memory). */
  open(fd: number): SslConn | null {
    if (this.#closed) return null;
    const s = this.#s;
    const ssl = s.SSL_new(this.#ctx);
    if (ssl === null) return null;
    if (
      s.SSL_set_fd(ssl, fd) !== 1 ||
      (this.#sni &&
        s.SSL_ctrl(ssl, SSL_CTRL_SET_TLSEXT_HOSTNAME, BigInt(TLSEXT_NAMETYPE_HOST_NAME), this.#name) !==
          1n) ||
      (!this.options?.insecure && s.SSL_set1_host(ssl, this.#name) !== 1)
    ) {
      s.SSL_free(ssl);
      s.ERR_clear_error();
      return null;
    }
    this.#live++;
    return new SslConn(this, s, ssl);
  }

  /** Connections opened and not yet freed. */
  get liveConns(): number {
    return this.#live;
  }

  /** Called by `SslConn.free` once. */
  released(): void {
    this.#live--;
  }

  /** Why a failed handshake failed: the verification reason when verification failed, else OpenSSL's. */
  handshakeFailure(s: LibSsl, ssl: Deno.PointerObject, errno: number): Error {
    const verify = Number(s.SSL_get_verify_result(ssl));
    const queued = this.#lastError(); // drained either way: a stale error would mislead the next SSL_get_error
    const detail = verify !== 0
      ? VERIFY_REASONS[verify] ?? `certificate verify failed (X509_V_ERR ${verify})`
      : queued;
    const why = detail !== "no detail"
      ? detail
      : errno !== 0
      ? `os error ${errno}`
      : "the server closed the connection during the handshake";
    return new Deno.errors.InvalidData(`tls handshake failed: ${why}`);
  }

  /** Frees the context (connections still open keep their own reference to it, as OpenSSL counts them). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#s.SSL_CTX_free(this.#ctx);
  }
}

/** One TLS connection's `SSL`; every call after `free` is a closed-socket answer, never a use after free. */
export class SslConn {
  #ssl: Deno.PointerObject | null;
  readonly #ptr = new BigUint64Array(1);
  readonly #len = new Uint32Array(1);

  constructor(readonly client: OpenSslClient, readonly s: LibSsl, ssl: Deno.PointerObject) {
    this.#ssl = ssl;
  }

  /** 1 once the handshake is done, `-EAGAIN` while it waits for the socket; throws when it failed. */
  handshake(): number {
    const ssl = this.#ssl;
    if (ssl === null) throw new Deno.errors.BadResource("socket closed");
    const rc = this.s.SSL_connect(ssl);
    if (rc === 1) return 1;
    const code = this.s.SSL_get_error(ssl, rc);
    if (code === SSL_ERROR_WANT_READ || code === SSL_ERROR_WANT_WRITE) return -EAGAIN;
    throw this.client.handshakeFailure(this.s, ssl, code === SSL_ERROR_SYSCALL ? this.client.errno() : 0);
  }

  /** Decrypted bytes into `buf[0, length)`: count, 0 at end of stream, `-EAGAIN`, or `-errno`. */
  read(buf: Uint8Array, length = buf.length): number {
    const ssl = this.#ssl;
    if (ssl === null) return -ECONNRESET;
    if (length <= 0 || length > buf.length || length > MAX_IO_BYTES) throw new RangeError("read length");
    const rc = this.s.SSL_read(ssl, buf, length);
    return rc > 0 ? rc : this.#failed(ssl, rc);
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
    if (code === SSL_ERROR_ZERO_RETURN) return 0;
    this.s.ERR_clear_error();
    const os = code === SSL_ERROR_SYSCALL ? this.client.errno() : 0;
    return -(os > 0 ? os : ECONNRESET);
  }

  /** What the handshake negotiated (read once per run, off the hot path). */
  negotiated(): SslNegotiated | null {
    const ssl = this.#ssl;
    if (ssl === null) return null;
    const text = (p: Deno.PointerValue) => p === null ? null : new Deno.UnsafePointerView(p).getCString();
    this.s.SSL_get0_alpn_selected(ssl, new Uint8Array(this.#ptr.buffer), new Uint8Array(this.#len.buffer));
    const alpnPtr = Deno.UnsafePointer.create(this.#ptr[0]);
    const alpnLen = Math.min(this.#len[0], 255);
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

  /** Frees the `SSL` (before its socket's fd is closed); idempotent. */
  free(): void {
    const ssl = this.#ssl;
    if (ssl === null) return;
    this.#ssl = null;
    this.s.SSL_free(ssl);
    this.client.released();
  }
}
