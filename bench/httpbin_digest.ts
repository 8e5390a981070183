/**
 * @module
 * httpbin's `/digest-auth/{qop}/{user}/{passwd}[/{algorithm}]` for local runs of k6 scripts written
 * against httpbin: a request without valid Digest credentials gets a 401 with a fresh challenge (realm,
 * nonce, opaque, qop, algorithm MD5 or SHA-256); one whose `Authorization` answers a challenge this
 * server issued with the right user and password gets httpbin's `{ authenticated: true, user }`. The
 * check is computed here from RFC 7616 on its own, so a client's mistake is not mirrored by it.
 */
import { createHash, randomBytes } from "node:crypto";

/** Nonces this server issued (a response to another is refused). */
const issued = new Set<string>();

/** The response of httpbin's digest-auth path `path`, or null when `path` is not one. */
export function digestAuthResponse(req: Request, path: string): Response | null {
  const m = /^\/digest-auth\/([^/]+)\/([^/]+)\/([^/]+)(?:\/([^/]+))?$/.exec(path);
  if (m === null) return null;
  const [, qop, user, password, algorithm = "MD5"] = m;
  const given = parseAuthorization(req.headers.get("authorization"));
  if (given !== null && issued.has(given.nonce ?? "") && given.username === user) {
    const url = new URL(req.url);
    const expected = expectedResponse(given, req.method, url.pathname + url.search, password, algorithm);
    if (expected === given.response) return Response.json({ authenticated: true, user });
  }
  const nonce = randomBytes(16).toString("hex");
  issued.add(nonce);
  const challenge = `Digest realm="me@kennethreitz.com", nonce="${nonce}", qop="${qop}", ` +
    `opaque="${randomBytes(16).toString("hex")}", algorithm=${algorithm}, stale=FALSE`;
  return new Response(null, { status: 401, headers: { "www-authenticate": challenge } });
}

function parseAuthorization(header: string | null): Record<string, string> | null {
  if (header === null || !header.startsWith("Digest ")) return null;
  const out: Record<string, string> = {};
  for (const m of header.slice(7).matchAll(/(\w+)=(?:"([^"]*)"|([^,\s]+))/g)) out[m[1]] = m[2] ?? m[3];
  return out;
}

function expectedResponse(
  a: Record<string, string>,
  method: string,
  uri: string,
  password: string,
  algorithm: string,
): string {
  const h = (s: string) => createHash(algorithm === "SHA-256" ? "sha256" : "md5").update(s).digest("hex");
  const ha1 = h(`${a.username}:${a.realm}:${password}`);
  const ha2 = h(`${method}:${uri}`);
  if (a.uri !== uri) return "";
  return a.qop === undefined
    ? h(`${ha1}:${a.nonce}:${ha2}`)
    : h(`${ha1}:${a.nonce}:${a.nc}:${a.cnonce}:${a.qop}:${ha2}`);
}
