/**
 * @module
 * HTTP Digest authentication (RFC 7616, RFC 2617's MD5 forms) for k6's `params.auth: "digest"`: a 401 with a
 * Digest challenge is answered once with the URL's user and password, as k6 does.
 */
import { createHash, randomBytes } from "node:crypto";

/** k6's `params.auth`: "basic" (the URL's credentials, k6's default) or "digest"; another is refused. */
export function authKind(auth: string | undefined): "basic" | "digest" {
  if (auth === undefined || auth === "basic" || auth === "digest") return auth ?? "basic";
  throw new TypeError(`http params.auth: ${auth} is not supported by loadlab's k6 runtime (basic, digest)`);
}

type Challenge = Record<string, string>;

/** The Digest challenge of a `WWW-Authenticate` value, or null when it is none. */
export function digestChallenge(header: string | null): Challenge | null {
  if (header === null || !/^\s*digest\s/i.test(header)) return null;
  const out: Challenge = {};
  const param = /([\w-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/g;
  for (const m of header.replace(/^\s*digest\s+/i, "").matchAll(param)) {
    out[m[1].toLowerCase()] = m[2] !== undefined ? m[2].replace(/\\(.)/g, "$1") : m[3];
  }
  return out;
}

/** The Authorization value answering `challenge` for `method` on `uri` (its path and query). */
export function digestAuthorization(
  challenge: Challenge,
  method: string,
  uri: string,
  user: string,
  password: string,
  nc = 1,
): string {
  const algorithm = challenge.algorithm ?? "MD5";
  const hashName = /^sha-256/i.test(algorithm) ? "sha256" : "md5";
  const h = (s: string) => createHash(hashName).update(s).digest("hex");
  const realm = challenge.realm ?? "", nonce = challenge.nonce ?? "";
  const cnonce = randomBytes(8).toString("hex");
  const qop = (challenge.qop ?? "").split(",").map((q) => q.trim()).includes("auth") ? "auth" : "";
  const count = nc.toString(16).padStart(8, "0");
  let ha1 = h(`${user}:${realm}:${password}`);
  if (/-sess$/i.test(algorithm)) ha1 = h(`${ha1}:${nonce}:${cnonce}`);
  const ha2 = h(`${method}:${uri}`);
  const response = qop === ""
    ? h(`${ha1}:${nonce}:${ha2}`)
    : h(`${ha1}:${nonce}:${count}:${cnonce}:${qop}:${ha2}`);
  const fields = [`username="${user}"`, `realm="${realm}"`, `nonce="${nonce}"`, `uri="${uri}"`];
  fields.push(`algorithm=${algorithm}`, `response="${response}"`);
  if (qop !== "") fields.push(`qop=${qop}`, `nc=${count}`, `cnonce="${cnonce}"`);
  if (challenge.opaque !== undefined) fields.push(`opaque="${challenge.opaque}"`);
  return `Digest ${fields.join(", ")}`;
}
