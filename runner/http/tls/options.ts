/**
 * @module
 * The TLS options of a run and the PEM material they name, read and checked once before any load;
 * verification failures named by reason (`expired`, `unknown-ca`, `hostname`) so results count them apart.
 */
import { z } from "zod";
import { createPrivateKey, X509Certificate } from "node:crypto";
import { FileReadError, readTextFileCapped } from "../../../system/read_capped.ts";
import { knownCipherSuite, TLS_VERSIONS, type TlsVersionName } from "./cipher_names.ts";
import { fieldsOf, option } from "../../option.ts";

/** `HOST:PORT`, the host a hostname, an IPv4 literal or a bracketed IPv6 literal. */
const HOST_PORT = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/;

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

function tlsVersion(key: string) {
  const names = Object.keys(TLS_VERSIONS) as [TlsVersionName, ...TlsVersionName[]];
  return z.enum(names, { error: `${key} is one of ${names.join(", ")}` });
}

/** What the `deno` transport's TLS clients cannot honour of `options` (a message naming it), or null. */
export function beyondDenoTls(options: TlsOptions | undefined): string | null {
  const set = (["minVersion", "maxVersion", "ciphers"] as const).filter((k) => options?.[k] !== undefined);
  if (set.length === 0) return null;
  return `tls.${set.join(", tls.")}: Deno's TLS cannot set TLS versions or cipher suites; only the epoll ` +
    "transport's OpenSSL client does (Linux with libssl.so.3, --transport auto or epoll)";
}
export type TlsOptionsInput = z.input<typeof tlsOptionsSchema>;

export interface TlsMaterial {
  caCerts: string[];
  cert?: string;
  key?: string;
}

/** A TLS file that cannot be used; `flag` is the option that named it. */
export class TlsFileError extends Error {
  override name = "TlsFileError";
  constructor(readonly flag: string, message: string, options?: ErrorOptions) {
    super(`${flag}: ${message}`, options);
  }
}

/** A port that can be dialed: 0 means "any" to the OS and is never a server's. */
function validPort(port: number): boolean {
  return port >= 1 && port <= 65535;
}

/** Host and port `connectTo` names (brackets stripped from IPv6 literals). */
function parseConnectTo(text: string): { hostname: string; port: number } {
  const m = HOST_PORT.exec(text)!;
  return { hostname: m[1].replace(/^\[(.*)\]$/, "$1"), port: Number(m[2]) };
}

/** Largest PEM file read: a CA bundle is ~200 KiB; a device (`/dev/zero`) would be read forever. */
const MAX_PEM_FILE_BYTES = 16 * 2 ** 20;

function readPem(flag: string, path: string, what: string): string {
  let text: string;
  try {
    text = readTextFileCapped(path, MAX_PEM_FILE_BYTES);
  } catch (err) {
    if (!(err instanceof FileReadError)) throw err;
    throw new TlsFileError(flag, `cannot read ${path} (${err.reason}); give the path of a PEM ${what}`, {
      cause: err,
    });
  }
  if (!text.includes("-----BEGIN ")) {
    throw new TlsFileError(flag, `${path} holds no PEM block; convert it with openssl to PEM ${what}`);
  }
  return text;
}

function certificatesOf(flag: string, path: string, pem: string): X509Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) {
    throw new TlsFileError(flag, `${path} holds no "BEGIN CERTIFICATE" block; give a PEM certificate file`);
  }
  return blocks.map((block, i) => {
    try {
      return new X509Certificate(block);
    } catch (err) {
      throw new TlsFileError(flag, `certificate ${i + 1} of ${path} does not parse; re-export it as PEM`, {
        cause: err,
      });
    }
  });
}

/** Reads and checks the files `options` and its `auth` pairs name (`host`'s pair, else the files'). */
export function loadTlsMaterial(options: Partial<TlsOptions> | undefined, host?: string): TlsMaterial {
  if (!options) return { caCerts: [] };
  const caCerts = options.caFile === undefined
    ? []
    : [readPem("--cacert", options.caFile, "certificate bundle")];
  if (options.caFile !== undefined) certificatesOf("--cacert", options.caFile, caCerts[0]);
  const pairs = (options.auth ?? []).map((a, i) => {
    const at = `tls.auth[${i}]`;
    return { ...a, key: checkedKey([`${at}.cert`, "its PEM text"], [`${at}.key`, "its PEM text"], a) };
  });
  const pair = host === undefined ? undefined : authPair(pairs, host);
  if (pair !== undefined) return { caCerts, cert: pair.cert, key: pair.key };
  if (options.certFile === undefined || options.keyFile === undefined) return { caCerts };
  const cert = readPem("--cert", options.certFile, "certificate");
  const key = checkedKey(["--cert", options.certFile], ["--key", options.keyFile], {
    cert,
    key: readPem("--key", options.keyFile, "private key"),
  });
  return { caCerts, cert, key };
}

/** The key (unencrypted PEM) once checked to be the certificate's, decrypted by `password` (k6's tlsAuth). */
function checkedKey(
  [certFlag, certPath]: string[],
  [keyFlag, keyPath]: string[],
  pem: { cert: string; key: string; password?: string },
): string {
  const [leaf] = certificatesOf(certFlag, certPath, pem.cert);
  let privateKey;
  try {
    privateKey = createPrivateKey({ key: pem.key, passphrase: pem.password });
  } catch (err) {
    throw new TlsFileError(
      keyFlag,
      `${keyPath} is not an unencrypted PEM private key (or its password is wrong); decrypt it ` +
        "(openssl pkey -in KEY -out plain.pem)",
      { cause: err },
    );
  }
  if (!leaf.checkPrivateKey(privateKey)) {
    throw new TlsFileError(
      keyFlag,
      `${keyPath} does not match the certificate of ${certFlag} ${certPath}; give the key it was issued for`,
    );
  }
  return privateKey.export({ type: "pkcs8", format: "pem" }) as string;
}

/** The `auth` pair presented to `host`: the first whose domains name it, else the first (as k6's). */
function authPair<T extends { domains: string[] }>(pairs: T[], host: string): T | undefined {
  const names = (d: string) => d === host || (d.startsWith("*.") && host.endsWith(d.slice(1)));
  return pairs.find((p) => p.domains.some(names)) ?? pairs[0];
}

/** Why certificate verification failed, named the same for every TLS client; null when it is not one. */
export function verifyFailureReason(message: string): "expired" | "unknown-ca" | "hostname" | null {
  if (/expired|not yet valid|NotValidYet/i.test(message)) return "expired";
  if (/UnknownIssuer|unknown ca|issuer certificate|self[- ]signed|CaUsedAsEndEntity/i.test(message)) {
    return "unknown-ca";
  }
  if (/not valid for name|NotValidForName|altnames|hostname|Host: .* is not/i.test(message)) {
    return "hostname";
  }
  return null;
}

const FAILURE_MESSAGES = {
  expired: "tls expired: the server's certificate is expired or not yet valid (or pass --insecure)",
  "unknown-ca":
    "tls unknown-ca: the server's certificate is not signed by a trusted CA (pass --cacert FILE or --insecure)",
  hostname: "tls hostname: the server's certificate does not name the host (use --sni NAME or --insecure)",
};

/** The counted message of a failed handshake: the reason, a mismatch's certificate names, then the fix. */
export function tlsFailureMessage(message: string): string {
  const reason = verifyFailureReason(message);
  if (reason === null) return `tls: ${message}`;
  const host = /for name "([^"]+)"|Host: (\S+?)\.? is not/.exec(message);
  const names = [...message.matchAll(/(?:Name\("|Address\(|DNS:|IP Address:)([^",)]+)/g)]
    .map(([, n]) => n.includes(":") ? new URL(`http://[${n}]`).hostname.slice(1, -1) : n);
  const named = host && names.length > 0 ? `names ${names.join(", ")}, not ${host[1] ?? host[2]}` : "";
  return FAILURE_MESSAGES[reason].replace(/does not name the host/, named || "$&");
}

/** ALPN offers `h2` alone (`--protocol h2`): a connection whose server selected anything else is refused. */
export function h2Required(alpn: readonly string[] | undefined): boolean {
  return alpn !== undefined && alpn.length === 1 && alpn[0] === "h2";
}

/** A connection that required `h2` whose server selected another (RFC 9113 3.2): counted `tls` at connect. */
export function h2NotSelected(selected: string | null): Error {
  return new Deno.errors.InvalidData(
    `the server did not select h2 by ALPN (it selected ${selected === null ? "no protocol" : selected}), ` +
      "so it does not speak HTTP/2 over TLS here; --protocol auto falls back to HTTP/1.1",
  );
}

/** The name a TLS client sends and verifies: the `sni` option, else the URL's (unbracketed) host. */
export function serverNameOf(url: URL, options: TlsOptions | undefined): string {
  return options?.sni ?? url.hostname.replace(/^\[(.*)\]$/, "$1");
}

export function connectToOf(options: TlsOptions | undefined): { hostname: string; port: number } | undefined {
  return options?.connectTo === undefined ? undefined : parseConnectTo(options.connectTo);
}
