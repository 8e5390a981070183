/**
 * @module
 * The TLS options of a run, each with its flag, as the config's schema checks them (files: material.ts).
 */
import { z } from "zod";
import { knownCipherSuite, TLS_VERSIONS, type TlsVersionName } from "./cipher_names.ts";
import { fieldsOf, option } from "../../option.ts";
import { HOST_PORT, parseConnectTo } from "./material.ts";

/** The `tls` options a flag sets too, each declared once with its flag. */
export const TLS_OPTIONS = {
  insecure: option(
    { flag: "-k, --insecure" },
    z.boolean().default(false),
    "skip certificate verification (printed as a warning, recorded",
    "in results; uses node:tls, as Deno.startTls always verifies)",
  ),
  caFile: option(
    { kind: "text", flag: "--cacert FILE", example: "ca.pem" },
    z.string().min(1).optional(),
    "PEM bundle of extra trusted CAs (e.g. a target's tls-ca.pem)",
  ),
  /** Presented when the server asks for one. */
  certFile: option(
    { kind: "text", flag: "--cert FILE", example: "client.pem" },
    z.string().min(1).optional(),
    "client certificate (PEM), with --key FILE (unencrypted PEM key)",
  ),
  keyFile: option(
    { kind: "text", flag: "--key FILE", example: "client-key.pem" },
    z.string().min(1).optional(),
    "",
  ),
  sni: option(
    { kind: "text", flag: "--sni NAME", example: "api.example.com" },
    z.string().regex(/^[A-Za-z0-9.-]+$/, "sni must be a DNS name, e.g. api.example.com").optional(),
    "server name sent and verified instead of the URL's host",
  ),
  /** curl's and oha's --connect-to. */
  connectTo: option(
    { kind: "text", flag: "--connect-to H:P", example: "127.0.0.1:8443" },
    z.string().regex(HOST_PORT, "connectTo must be HOST:PORT, e.g. 127.0.0.1:8443").refine(
      (text) => !HOST_PORT.test(text) || validPort(parseConnectTo(text).port),
      {
        error: (issue) =>
          `connectTo port ${String(issue.input).replace(/^.*:/, "")} is not 1-65535, e.g. 127.0.0.1:8443`,
      },
    ).optional(),
    "dial H:P instead of the URL's host and port (http: too)",
  ),
  resume: option(
    { flag: "--tls-resume on|off", example: "off" },
    z.union([z.boolean(), z.enum(["on", "off"], { error: "resume must be on or off" })])
      .transform((v) => v === true || v === "on").default(true),
    "resume the last TLS session on a worker's new connections (default",
    "on, as browsers do; epoll transport and h3 only: the deno transport",
    "cannot, and its results say so); results count the handshakes resumed",
  ),
};

export const tlsOptionsSchema = z.strictObject({
  ...fieldsOf(TLS_OPTIONS),
  /** TLS versions and cipher suites offered (k6's `tlsVersion`, `tlsCipherSuites`): epoll's OpenSSL only. */
  minVersion: tlsVersion("minVersion").optional(),
  maxVersion: tlsVersion("maxVersion").optional(),
  ciphers: z.array(
    z.string().refine(knownCipherSuite, {
      error: (issue) =>
        `${String(issue.input)} is not a TLS cipher suite loadlab knows: use a standard name, e.g. ` +
        "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256 or TLS_AES_128_GCM_SHA256",
    }),
  ).min(1, "ciphers names at least one suite").optional(),
  /** k6's tlsAuth: client certificates and keys (PEM text), each presented to the hosts its domains name. */
  auth: z.array(z.strictObject({
    domains: z.array(z.string()).default([]),
    cert: z.string(),
    key: z.string(),
    password: z.string().optional(),
  })).optional(),
}).refine((t) =>
  t.minVersion === undefined || t.maxVersion === undefined ||
  TLS_VERSIONS[t.minVersion] <= TLS_VERSIONS[t.maxVersion], {
  message: "minVersion is newer than maxVersion: swap them",
  path: ["maxVersion"],
}).refine((t) => (t.certFile === undefined) === (t.keyFile === undefined), {
  message: "a client certificate needs both certFile and keyFile (--cert FILE --key FILE)",
  path: ["keyFile"],
});
export type TlsOptions = z.output<typeof tlsOptionsSchema>;

/** A port that can be dialed: 0 means "any" to the OS and is never a server's. */
function validPort(port: number): boolean {
  return port >= 1 && port <= 65535;
}

function tlsVersion(key: string) {
  const names = Object.keys(TLS_VERSIONS) as [TlsVersionName, ...TlsVersionName[]];
  return z.enum(names, { error: `${key} is one of ${names.join(", ")}` });
}

export type TlsOptionsInput = z.input<typeof tlsOptionsSchema>;
