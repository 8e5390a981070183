/**
 * @module
 * A k6 script's URL read as k6 reads it, by Go's net/url: the query and dot segments sent as written, the
 * path escaped where Go escapes it, a bad `%` or a control character an invalid URL; its `url` tag and
 * `res.url` as Go prints it (`String()`, credentials as `****` in the tag).
 */

/** What Go's parse of a URL gives k6: its request line's target, how it prints, and its parts. */
export interface GoUrl {
  /** The request-target sent: the escaped path (`/` when empty) and the query as written. */
  readonly target: string;
  /** Go's `String()`: `res.url`. */
  readonly shown: string;
  /** k6's `url` and default `name` tag: `shown`, its user and password each `****`. */
  readonly tag: string;
  /** The scheme in lower case, the authority (`user:pass@host:port`) as written. */
  readonly scheme: string;
  readonly user: string;
  readonly host: string;
}

const encoder = new TextEncoder();
const HEX = /^[0-9a-fA-F]{2}$/;
/** Bytes Go's `validEncoded` keeps in a path as written; any other printable ASCII is escaped. */
const KEPT = /^[A-Za-z0-9\-_.~!$&'()*+,;=:@[\]%/]*$/;
/** Bytes Go's `shouldEscape` leaves in an escaped path. */
const BARE = /[A-Za-z0-9\-_.~$&+,/:;=@]/;

/** `href` (absolute, or a path) as Go parses it, or Go's reason it is no URL (`invalid URL escape "%zz"`). */
export function goUrl(href: string): GoUrl | string {
  // deno-lint-ignore no-control-regex
  if (/[\x00-\x1f\x7f]/.test(href)) return "net/url: invalid control character in URL";
  const hash = href.indexOf("#"), fragment = hash < 0 ? "" : href.slice(hash + 1);
  let rest = hash < 0 ? href : href.slice(0, hash);
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(rest)?.[1].toLowerCase() ?? "";
  if (scheme !== "") rest = rest.slice(scheme.length + 1);
  const q = rest.indexOf("?"), query = q < 0 ? undefined : rest.slice(q + 1);
  if (q >= 0) rest = rest.slice(0, q);
  let authority = "";
  if (scheme !== "" && rest.startsWith("//")) {
    const end = rest.indexOf("/", 2);
    authority = end < 0 ? rest.slice(2) : rest.slice(2, end);
    rest = end < 0 ? "" : rest.slice(end);
  }
  const bad = badEscape(rest) ?? badEscape(fragment);
  if (bad !== undefined) return `invalid URL escape ${JSON.stringify(bad)}`;
  const path = escapedPath(rest);
  const at = authority.lastIndexOf("@"), user = at < 0 ? "" : authority.slice(0, at);
  const host = authority.slice(at + 1), tail = `${path}${query === undefined ? "" : `?${query}`}`;
  const lead = scheme === "" ? "" : `${scheme}://`, end = fragment === "" ? "" : `#${escapedPath(fragment)}`;
  const masked = user === "" ? "" : user.includes(":") ? "****:****@" : "****@";
  return {
    target: tail.startsWith("/") ? tail : `/${tail}`,
    shown: `${lead}${user === "" ? "" : `${user}@`}${host}${tail}${end}`,
    tag: `${lead}${masked}${host}${tail}${end}`,
    scheme,
    user,
    host,
  };
}

/** The first `%` of `raw` not followed by two hex digits, with what follows it (Go's error names it). */
function badEscape(raw: string): string | undefined {
  for (let i = raw.indexOf("%"); i >= 0; i = raw.indexOf("%", i + 1)) {
    if (!HEX.test(raw.slice(i + 1, i + 3))) return raw.slice(i, i + 3);
  }
  return undefined;
}

/** Go's `EscapedPath` of `raw`: as written when Go keeps it, else each byte it escapes as `%XX`. */
function escapedPath(raw: string): string {
  if (KEPT.test(raw)) return raw;
  const bytes = encoder.encode(raw);
  let out = "";
  for (let i = 0; i < bytes.length; i++) {
    // A `%XX` names its byte: Go decodes the path, then escapes each byte again.
    const b = bytes[i] === 37 ? parseInt(String.fromCharCode(bytes[++i], bytes[++i]), 16) : bytes[i];
    const c = String.fromCharCode(b);
    out += b < 128 && BARE.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}
