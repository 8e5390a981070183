/**
 * @module
 * The binding of the system's OpenSSL 3 (`libssl.so.3`, opened once per isolate). Hot calls use `i32`/`u32`
 * for V8's fast call path; none is `nonblocking` (the sockets are).
 */
import { errorMessage } from "../exchange_errors.ts";

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
  SSL_CTX_set_cipher_list: { parameters: ["pointer", "buffer"], result: "i32" },
  SSL_CTX_set_ciphersuites: { parameters: ["pointer", "buffer"], result: "i32" },
  SSL_new: { parameters: ["pointer"], result: "pointer" },
  SSL_free: { parameters: ["pointer"], result: "void" },
  SSL_clear: { parameters: ["pointer"], result: "i32" },
  SSL_set_fd: { parameters: ["pointer", "i32"], result: "i32" },
  SSL_ctrl: { parameters: ["pointer", "i32", "i64", "buffer"], result: "i64" },
  SSL_set1_host: { parameters: ["pointer", "buffer"], result: "i32" },
  SSL_connect: { parameters: ["pointer"], result: "i32" },
  SSL_read: { parameters: ["pointer", "buffer", "i32"], result: "i32" },
  SSL_has_pending: { parameters: ["pointer"], result: "i32" },
  SSL_get_rbio: { parameters: ["pointer"], result: "pointer" },
  // libcrypto's, found through libssl's handle; u32: only differences between two reads are used.
  BIO_number_read: { parameters: ["pointer"], result: "u32" },
  // libcrypto's too: `BIO_eof` (a macro of `BIO_ctrl`), read only when a connection ends.
  BIO_ctrl: { parameters: ["pointer", "i32", "i64", "pointer"], result: "i64" },
  SSL_write: { parameters: ["pointer", "buffer", "i32"], result: "i32" },
  SSL_get_error: { parameters: ["pointer", "i32"], result: "i32" },
  SSL_get_verify_result: { parameters: ["pointer"], result: "i64" },
  // The server's chain, kept when its verification failed; libcrypto's two read its first certificate.
  SSL_get_peer_cert_chain: { parameters: ["pointer"], result: "pointer" },
  OPENSSL_sk_value: { parameters: ["pointer", "i32"], result: "pointer" },
  i2d_X509: { parameters: ["pointer", "buffer"], result: "i32" },
  SSL_get_version: { parameters: ["pointer"], result: "pointer" },
  SSL_get_current_cipher: { parameters: ["pointer"], result: "pointer" },
  SSL_CIPHER_get_name: { parameters: ["pointer"], result: "pointer" },
  SSL_get0_alpn_selected: { parameters: ["pointer", "buffer", "buffer"], result: "void" },
  SSL_set_session: { parameters: ["pointer", "pointer"], result: "i32" },
  SSL_get1_session: { parameters: ["pointer"], result: "pointer" },
  SSL_session_reused: { parameters: ["pointer"], result: "i32" },
  SSL_set_shutdown: { parameters: ["pointer", "i32"], result: "void" },
  SSL_shutdown: { parameters: ["pointer"], result: "i32" },
  SSL_SESSION_is_resumable: { parameters: ["pointer"], result: "i32" },
  SSL_SESSION_free: { parameters: ["pointer"], result: "void" },
  ERR_get_error: { parameters: [], result: "u64" },
  ERR_error_string_n: { parameters: ["u64", "buffer", "u32"], result: "void" },
  ERR_clear_error: { parameters: [], result: "void" },
} as const satisfies Deno.ForeignLibraryInterface;

export type LibSsl = Deno.DynamicLibrary<typeof SYMBOLS>["symbols"];

export const SSL_VERIFY_NONE = 0;
export const SSL_VERIFY_PEER = 1;
export const SSL_FILETYPE_PEM = 1;
export const SSL_CTRL_MODE = 33;
export const SSL_CTRL_SET_READ_AHEAD = 41;
export const SSL_CTRL_SET_MIN_PROTO_VERSION = 123;
export const SSL_CTRL_SET_MAX_PROTO_VERSION = 124;
export const SSL_CTRL_SET_TLSEXT_HOSTNAME = 55;
export const TLSEXT_NAMETYPE_HOST_NAME = 0;
/** Partial writes (a write returns what went out) and retries from another view of the same bytes. */
export const SSL_MODE_PARTIAL_MOVING = 0x1 | 0x2;
/** OpenSSL frees a connection's empty read and write buffers (~17 KiB each): an idle crowd holds none. */
export const SSL_MODE_RELEASE_BUFFERS = 0x10;
/** A peer's close without close_notify reads as end of stream (as plain TCP and Deno's client do). */
export const SSL_OP_IGNORE_UNEXPECTED_EOF = 1n << 7n;
/** `SSL_set_shutdown`'s both directions: the connection ended cleanly as far as its session is concerned. */
export const SSL_SHUTDOWN_BOTH = 1 | 2;
export const SSL_ERROR_WANT_READ = 2;
export const SSL_ERROR_WANT_WRITE = 3;
export const SSL_ERROR_SSL = 1;
export const SSL_ERROR_SYSCALL = 5;
export const SSL_ERROR_ZERO_RETURN = 6;
export const ECONNRESET = 104;
/** `BIO_ctrl`'s `BIO_CTRL_EOF`: the socket BIO's last read found the end of stream. */
export const BIO_CTRL_EOF = 2;
/** Not an errno: a TCP close without close_notify (no proof a close-delimited body is whole). */
export const TLS_TRUNCATED = 0x10000;
/** Not an errno either: a failure in TLS itself (`SSL_ERROR_SSL`: a bad record, a fatal alert). */
export const TLS_FAILED = 0x10001;

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
export function libssl(): LibSsl {
  if (loaded === null) loaded = Deno.dlopen(libsslName(), SYMBOLS).symbols;
  return loaded;
}

export function opensslUnavailableReason(): string | null {
  try {
    libssl();
    return null;
  } catch (err) {
    return `${libsslName()} not loadable through FFI: ${errorMessage(err)}`;
  }
}

export const cstr = (s: string) => new TextEncoder().encode(s + "\0");
