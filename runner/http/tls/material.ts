/**
 * @module
 * The PEM material a run's TLS options name, read and checked once before any load; verification failures
 * named by reason (`expired`, `unknown-ca`, `hostname`) so results count them apart. Plain: a load worker
 * reads it without the options' schema (options.ts).
 */
import { createPrivateKey, X509Certificate } from "node:crypto";
import { readOrRefuse, readTextFileCapped } from "../../../system/read_capped.ts";

/** `HOST:PORT`, the host a hostname, an IPv4 literal or a bracketed IPv6 literal. */
export const HOST_PORT = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/;

/** The options read here (options.ts declares them), as files and PEM text. */
interface TlsFiles {
  caFile?: string;
  certFile?: string;
  keyFile?: string;
  auth?: ReadonlyArray<{ domains: string[]; cert: string; key: string; password?: string }>;
}

/** What the `deno` transport's TLS clients cannot honour of `options` (a message naming it), or null. */
export function beyondDenoTls(
  options: { minVersion?: string; maxVersion?: string; ciphers?: string[] } | undefined,
): string | null {
  const set = (["minVersion", "maxVersion", "ciphers"] as const).filter((k) => options?.[k] !== undefined);
  if (set.length === 0) return null;
  return `tls.${set.join(", tls.")}: Deno's TLS cannot set TLS versions or cipher suites; only the epoll ` +
    "transport's OpenSSL client does (Linux with libssl.so.3, --transport auto or epoll)";
}

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

/** Host and port `connectTo` names (brackets stripped from IPv6 literals). */
export function parseConnectTo(text: string): { hostname: string; port: number } {
  const m = HOST_PORT.exec(text)!;
  return { hostname: m[1].replace(/^\[(.*)\]$/, "$1"), port: Number(m[2]) };
}

/** Largest PEM file read: a CA bundle is ~200 KiB; a device (`/dev/zero`) would be read forever. */
const MAX_PEM_FILE_BYTES = 16 * 2 ** 20;

function readPem(flag: string, path: string, what: string): string {
  const text = readOrRefuse(
    () => readTextFileCapped(path, MAX_PEM_FILE_BYTES),
    (why, cause) =>
      new TlsFileError(flag, `cannot read ${path} (${why}); give the path of a PEM ${what}`, cause),
  );
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
export function loadTlsMaterial(options: TlsFiles | undefined, host?: string): TlsMaterial {
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
export function serverNameOf(url: URL, options: { sni?: string } | undefined): string {
  return options?.sni ?? url.hostname.replace(/^\[(.*)\]$/, "$1");
}

export function connectToOf(
  options: { connectTo?: string } | undefined,
): { hostname: string; port: number } | undefined {
  return options?.connectTo === undefined ? undefined : parseConnectTo(options.connectTo);
}
