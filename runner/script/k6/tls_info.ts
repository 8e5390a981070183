/**
 * @module
 * k6's `res.ocsp`, `res.tls_version` and `res.tls_cipher_suite`, and k6/http's constants for them.
 */
import { standardCipherName } from "../../http/tls/cipher_names.ts";

/** k6's `res.ocsp`: the stapled OCSP answer's status, reason and times (seconds since the epoch). */
export interface Ocsp {
  produced_at: number;
  this_update: number;
  next_update: number;
  revoked_at: number;
  revocation_reason: string;
  status: string;
}

const TIMES = { produced_at: 0, this_update: 0, next_update: 0, revoked_at: 0 };
const OVER_TLS: Readonly<Ocsp> = Object.freeze({ ...TIMES, revocation_reason: "", status: "unknown" });
const PLAIN: Readonly<Ocsp> = Object.freeze({ ...OVER_TLS, status: "" });

export function ocspOf(origin: string): Readonly<Ocsp> {
  return origin.startsWith("https:") || origin.startsWith("wss:") ? OVER_TLS : PLAIN;
}

const OCSP_REASONS = [
  ...["unspecified", "key_compromise", "ca_compromise", "affiliation_changed", "superseded"],
  ...["cessation_of_operation", "certificate_hold", "remove_from_crl", "privilege_withdrawn"],
  "aa_compromise",
];
/** k6/http's constants for `res.ocsp` and `res.tls_version`, as k6 spells their values. */
export const TLS_NAMES: Readonly<Record<string, string>> = Object.fromEntries([
  ...["good", "revoked", "server_failed", "unknown"].map((v) => [`OCSP_STATUS_${v.toUpperCase()}`, v]),
  ...OCSP_REASONS.map((v) => [`OCSP_REASON_${v.toUpperCase()}`, v]),
  ...[0, 1, 2, 3].map((minor) => [`TLS_1_${minor}`, `tls1.${minor}`]),
]);

const K6_VERSIONS = new Map(
  ["TLSv1", "TLSv1.1", "TLSv1.2", "TLSv1.3"].map((v, minor) => [v, `tls1.${minor}`]),
);

/** k6's `res.tls_version` and `res.tls_cipher_suite`: "" over plain HTTP; undefined when unknown. */
export function tlsNamesOf(
  origin: string,
  tls: Readonly<{ version: string | null; cipher: string | null }> | undefined,
): { version: string | undefined; cipher: string | undefined } {
  if (tls === undefined) {
    const plain = origin.startsWith("http:") || origin.startsWith("ws:");
    return plain ? { version: "", cipher: "" } : { version: undefined, cipher: undefined };
  }
  return {
    version: tls.version === null ? undefined : K6_VERSIONS.get(tls.version) ?? tls.version,
    cipher: tls.cipher === null ? undefined : standardCipherName(tls.cipher),
  };
}
