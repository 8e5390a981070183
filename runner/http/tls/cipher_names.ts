/**
 * @module
 * TLS versions and cipher suites by their standard (IANA) names, as k6 and Go spell them, and the names
 * OpenSSL takes. The RC4 suites have no cipher in OpenSSL 3, so a list of only them is refused.
 */

/** k6's TLS version names and the protocol version numbers OpenSSL's min/max take. */
export const TLS_VERSIONS = { "tls1.0": 0x301, "tls1.1": 0x302, "tls1.2": 0x303, "tls1.3": 0x304 } as const;
export type TlsVersionName = keyof typeof TLS_VERSIONS;

/** TLS 1.0-1.2 suites by standard name: OpenSSL's name. */
const TLS12_SUITES: Readonly<Record<string, string>> = {
  TLS_RSA_WITH_RC4_128_SHA: "RC4-SHA",
  TLS_RSA_WITH_3DES_EDE_CBC_SHA: "DES-CBC3-SHA",
  TLS_RSA_WITH_AES_128_CBC_SHA: "AES128-SHA",
  TLS_RSA_WITH_AES_256_CBC_SHA: "AES256-SHA",
  TLS_RSA_WITH_AES_128_CBC_SHA256: "AES128-SHA256",
  TLS_RSA_WITH_AES_128_GCM_SHA256: "AES128-GCM-SHA256",
  TLS_RSA_WITH_AES_256_GCM_SHA384: "AES256-GCM-SHA384",
  TLS_ECDHE_ECDSA_WITH_RC4_128_SHA: "ECDHE-ECDSA-RC4-SHA",
  TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA: "ECDHE-ECDSA-AES128-SHA",
  TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA: "ECDHE-ECDSA-AES256-SHA",
  TLS_ECDHE_RSA_WITH_RC4_128_SHA: "ECDHE-RSA-RC4-SHA",
  TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA: "ECDHE-RSA-DES-CBC3-SHA",
  TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA: "ECDHE-RSA-AES128-SHA",
  TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA: "ECDHE-RSA-AES256-SHA",
  TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256: "ECDHE-RSA-AES128-GCM-SHA256",
  TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256: "ECDHE-ECDSA-AES128-GCM-SHA256",
  TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384: "ECDHE-RSA-AES256-GCM-SHA384",
  TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384: "ECDHE-ECDSA-AES256-GCM-SHA384",
  TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256: "ECDHE-ECDSA-AES128-SHA256",
  TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305: "ECDHE-RSA-CHACHA20-POLY1305",
  TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305: "ECDHE-ECDSA-CHACHA20-POLY1305",
  TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256: "ECDHE-RSA-AES128-SHA256",
};
const TLS13_SUITES = new Set([
  "TLS_AES_128_GCM_SHA256",
  "TLS_AES_256_GCM_SHA384",
  "TLS_CHACHA20_POLY1305_SHA256",
]);

/** Whether `name` is a suite this table knows (every one k6 accepts). */
export function knownCipherSuite(name: string): boolean {
  return name in TLS12_SUITES || TLS13_SUITES.has(name);
}

/** Standard names as OpenSSL's two `:`-lists (`tls12`, `tls13`); null keeps OpenSSL's default, as Go does. */
export function openSslCipherLists(names: readonly string[]): { tls12: string | null; tls13: string | null } {
  const tls12 = names.filter((n) => n in TLS12_SUITES).map((n) => TLS12_SUITES[n]);
  const tls13 = names.filter((n) => TLS13_SUITES.has(n));
  return {
    tls12: tls12.length > 0 ? tls12.join(":") : null,
    tls13: tls13.length > 0 ? tls13.join(":") : null,
  };
}

/** A negotiated suite's standard name from OpenSSL's, as k6's `res.tls_cipher_suite`; unknown ones stay. */
export function standardCipherName(openSslName: string): string {
  for (const name in TLS12_SUITES) if (TLS12_SUITES[name] === openSslName) return name;
  return openSslName;
}
