/**
 * @module
 * TLS for the epoll transport: one `OpenSslClient` per worker holds the `SSL_CTX` and a one-session cache for
 * `--tls-resume`, and opens an `SslConn` per connection; a cleanly ended connection's `SSL` is reused.
 */
import {
  cstr,
  type LibSsl,
  libssl,
  SSL_CTRL_MODE,
  SSL_CTRL_SET_MAX_PROTO_VERSION,
  SSL_CTRL_SET_MIN_PROTO_VERSION,
  SSL_CTRL_SET_READ_AHEAD,
  SSL_CTRL_SET_TLSEXT_HOSTNAME,
  SSL_FILETYPE_PEM,
  SSL_MODE_PARTIAL_MOVING,
  SSL_MODE_RELEASE_BUFFERS,
  SSL_OP_IGNORE_UNEXPECTED_EOF,
  SSL_VERIFY_NONE,
  SSL_VERIFY_PEER,
  TLSEXT_NAMETYPE_HOST_NAME,
  verifyResultMessage,
} from "./openssl_ffi.ts";
import { SslConn, type SslOwner } from "./openssl_conn.ts";
import { X509Certificate } from "node:crypto";
import { errnoMessage } from "../transport/socket_errors.ts";
import { h2Required, loadTlsMaterial } from "./material.ts";
import type { TlsOptions } from "./options.ts";
import { openSslCipherLists, TLS_VERSIONS } from "./cipher_names.ts";

/** Cleared `SSL`s kept for reuse: a closed loop's connections cycle through about as many as it has. */
const MAX_SPARE_SSL = 64;
/** Sessions in a row that could not be resumed before the client stops asking at every connection. */
const SESSION_MISSES_BEFORE_BACKOFF = 8;
/** While backed off, every this-many-th handshake still asks the server for a resumable session. */
const SESSION_RETRY_EVERY = 64;

/** One worker's `SSL_CTX`, its session cache and its handshake counts (never shared between isolates). */
export class OpenSslClient implements SslOwner {
  readonly #s = libssl();
  readonly #ctx: Deno.PointerObject;
  readonly #name: Uint8Array;
  readonly #sni: boolean;
  readonly #resume: boolean;
  readonly #errText = new Uint8Array(256);
  /** `h2` is offered by ALPN (`setAlpn`): each connection that negotiates it reads record by record. */
  offersH2 = false;
  requiresH2 = false;
  #closed = false;
  /** `SSL`s made and not yet freed (zero after a run: the leak check). */
  #live = 0;
  /** The session new connections offer to resume (a reference of ours, freed when replaced). */
  #session: Deno.PointerObject | null = null;
  /** Cleared `SSL`s of connections that ended cleanly, ready for the next ones. */
  readonly #spare: Deno.PointerObject[] = [];
  /** Sessions in a row the server gave that could not be resumed (tickets off, or no session cache). */
  #sessionMisses = 0;
  handshakes = 0;
  resumed = 0;

  /** `serverName`: sent as SNI (unless an IP literal) and verified. Throws when a file is refused. */
  constructor(serverName: string, readonly options: TlsOptions | undefined, readonly errno: () => number) {
    const s = this.#s;
    const ctx = s.SSL_CTX_new(s.TLS_client_method());
    if (ctx === null) throw new Error(`SSL_CTX_new failed: ${this.errorText()}`);
    this.#ctx = ctx;
    try {
      this.#configure(options, serverName);
    } catch (err) {
      s.SSL_CTX_free(ctx);
      throw err;
    }
    this.#name = cstr(serverName);
    this.#sni = !/^[\d.]+$/.test(serverName) && !serverName.includes(":");
    this.#resume = options?.resume ?? true;
  }

  #configure(options: TlsOptions | undefined, serverName: string): void {
    const s = this.#s;
    const ctx = this.#ctx;
    const fail = (what: string) => {
      throw new Error(`${what}: ${this.errorText()}`);
    };
    s.SSL_CTX_set_verify(ctx, options?.insecure ? SSL_VERIFY_NONE : SSL_VERIFY_PEER, null);
    if (!options?.insecure) this.#trust(options?.caFile);
    // The client certificate (--cert and --key, or k6's tlsAuth pair for this server), from a file of both.
    const { cert, key } = loadTlsMaterial(options, serverName);
    if (cert !== undefined) {
      const file = Deno.makeTempFileSync({ suffix: ".pem" });
      Deno.writeTextFileSync(file, `${cert}\n${key}`);
      const loaded = s.SSL_CTX_use_certificate_chain_file(ctx, cstr(file)) === 1 &&
        s.SSL_CTX_use_PrivateKey_file(ctx, cstr(file), SSL_FILETYPE_PEM) === 1;
      Deno.removeSync(file);
      if (!loaded || s.SSL_CTX_check_private_key(ctx) !== 1) {
        fail(`--cert ${options?.certFile ?? "(tls.auth)"}`);
      }
    }
    this.setAlpn(["http/1.1"]);
    s.SSL_CTX_set_options(ctx, SSL_OP_IGNORE_UNEXPECTED_EOF);
    s.SSL_CTX_ctrl(ctx, SSL_CTRL_MODE, BigInt(SSL_MODE_PARTIAL_MOVING | SSL_MODE_RELEASE_BUFFERS), null);
    this.#versionsAndSuites(options);
    // Read ahead: one read() takes a whole response's records instead of a record header, then its body.
    s.SSL_CTX_ctrl(ctx, SSL_CTRL_SET_READ_AHEAD, 1n, null);
  }

  /** The version range and the suites of `ciphers`; a list OpenSSL can offer none of is refused. */
  #versionsAndSuites(options: TlsOptions | undefined): void {
    const s = this.#s;
    const ctx = this.#ctx;
    const min = TLS_VERSIONS[options?.minVersion ?? "tls1.2"];
    if (s.SSL_CTX_ctrl(ctx, SSL_CTRL_SET_MIN_PROTO_VERSION, BigInt(min), null) !== 1n) {
      throw new Error(`tls.minVersion ${options?.minVersion}: ${this.errorText()}`);
    }
    if (options?.maxVersion !== undefined) {
      const max = BigInt(TLS_VERSIONS[options.maxVersion]);
      if (s.SSL_CTX_ctrl(ctx, SSL_CTRL_SET_MAX_PROTO_VERSION, max, null) !== 1n) {
        throw new Error(`tls.maxVersion ${options.maxVersion}: ${this.errorText()}`);
      }
    }
    if (options?.ciphers === undefined) return;
    const { tls12, tls13 } = openSslCipherLists(options.ciphers);
    const none = `tls.ciphers: OpenSSL offers none of ${options.ciphers.join(", ")}`;
    if (tls12 !== null && s.SSL_CTX_set_cipher_list(ctx, cstr(tls12)) !== 1) throw new Error(none);
    if (tls13 !== null && s.SSL_CTX_set_ciphersuites(ctx, cstr(tls13)) !== 1) throw new Error(none);
  }

  /** The roots a verified run trusts; none for --insecure (a hashed store would stat per handshake). */
  #trust(caFile: string | undefined): void {
    const s = this.#s;
    const ctx = this.#ctx;
    // The system's roots: the whole bundle parsed at start (50-120 ms of CPU per worker here), or, when
    // --cacert names the roots a test target needs, only the hashed directory, looked up lazily.
    const system = caFile === undefined
      ? s.SSL_CTX_set_default_verify_paths(ctx)
      : s.SSL_CTX_set_default_verify_dir(ctx);
    if (system !== 1) throw new Error(`the system CA store: ${this.errorText()}`);
    if (caFile !== undefined && s.SSL_CTX_load_verify_locations(ctx, cstr(caFile), null) !== 1) {
      throw new Error(`--cacert ${caFile}: ${this.errorText()}`);
    }
  }

  setAlpn(protocols: readonly string[]): void {
    this.offersH2 = protocols.includes("h2");
    this.requiresH2 = h2Required(protocols);
    const names = protocols.map((p) => new TextEncoder().encode(p));
    const wire = new Uint8Array(names.reduce((sum, n) => sum + 1 + n.length, 0));
    let at = 0;
    for (const name of names) {
      wire[at++] = name.length;
      wire.set(name, at);
      at += name.length;
    }
    if (this.#s.SSL_CTX_set_alpn_protos(this.#ctx, wire, wire.length) !== 0) {
      throw new Error(`ALPN ${protocols.join(",")}: ${this.errorText()}`);
    }
  }

  /** The oldest queued OpenSSL error as text (the queue cleared), or "no detail". */
  errorText(): string {
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
    const spare = this.#spare.pop() ?? null;
    const ssl = spare ?? s.SSL_new(this.#ctx);
    if (ssl === null) return null;
    // A cleared SSL keeps its last session: offer the cache's (or none), never the last connection's.
    const session = this.#resume ? this.#session : null;
    if (
      s.SSL_set_fd(ssl, fd) !== 1 ||
      (this.#sni &&
        s.SSL_ctrl(ssl, SSL_CTRL_SET_TLSEXT_HOSTNAME, BigInt(TLSEXT_NAMETYPE_HOST_NAME), this.#name) !==
          1n) ||
      (!this.options?.insecure && s.SSL_set1_host(ssl, this.#name) !== 1) ||
      ((session !== null || spare !== null) && s.SSL_set_session(ssl, session) !== 1)
    ) {
      s.SSL_free(ssl);
      s.ERR_clear_error();
      return null;
    }
    this.#live++;
    const askSession = this.#resume &&
      (this.#sessionMisses < SESSION_MISSES_BEFORE_BACKOFF || this.handshakes % SESSION_RETRY_EVERY === 0);
    return new SslConn(this, s, ssl, askSession);
  }

  get liveConns(): number {
    return this.#live;
  }

  released(ssl: Deno.PointerObject, reusable: boolean): void {
    this.#live--;
    const s = this.#s;
    if (reusable && !this.#closed && this.#spare.length < MAX_SPARE_SSL && s.SSL_clear(ssl) === 1) {
      this.#spare.push(ssl);
      return;
    }
    s.SSL_free(ssl);
  }

  handshakeDone(reused: boolean): void {
    this.handshakes++;
    if (reused) this.resumed++;
  }

  /** Keeps the connection's session when it can be resumed (the previous one freed), else drops it. */
  sessionArrived(ssl: Deno.PointerObject): void {
    if (this.#closed) return;
    const s = this.#s;
    const session = s.SSL_get1_session(ssl);
    if (session === null) return;
    if (s.SSL_SESSION_is_resumable(session) !== 1) {
      s.SSL_SESSION_free(session);
      this.#sessionMisses++;
      return;
    }
    this.#sessionMisses = 0;
    if (this.#session !== null) s.SSL_SESSION_free(this.#session);
    this.#session = session;
  }

  /** Why a failed handshake failed: the verification reason when verification failed, else OpenSSL's. */
  handshakeFailure(s: LibSsl, ssl: Deno.PointerObject, errno: number): Error {
    const verify = Number(s.SSL_get_verify_result(ssl));
    // Drained either way: a stale error would mislead the next SSL_get_error.
    const queued = this.errorText();
    let detail = verify !== 0 ? verifyResultMessage(verify) : queued;
    if (verify === 62 || verify === 64) {
      // The names of the server's certificate (its chain is kept when verification fails), as node:tls's.
      const cert = s.OPENSSL_sk_value(s.SSL_get_peer_cert_chain(ssl), 0);
      const der = new Uint8Array(Math.max(0, s.i2d_X509(cert, null)));
      // i2d_X509 writes where the pointer it is given points.
      s.i2d_X509(cert, new BigUint64Array([BigInt(Deno.UnsafePointer.value(Deno.UnsafePointer.of(der)))]));
      const names = der.length > 0 ? new X509Certificate(der).subjectAltName ?? "" : "";
      const host = new TextDecoder().decode(this.#name.subarray(0, -1));
      detail += `: Host: ${host} is not in the cert's altnames: ${names}`;
    }
    const why = detail !== "no detail"
      ? detail
      : errno !== 0
      ? errnoMessage(errno)
      : "the server closed the connection during the handshake";
    return new Deno.errors.InvalidData(`tls handshake failed: ${why}`);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#session !== null) this.#s.SSL_SESSION_free(this.#session);
    this.#session = null;
    for (const ssl of this.#spare.splice(0)) this.#s.SSL_free(ssl);
    this.#s.SSL_CTX_free(this.#ctx);
  }
}
