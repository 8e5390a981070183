/**
 * @module
 * A k6 script's URL read by Go's net/url as k6 reads it: query and dot segments sent as written, the path
 * escaped as Go does, a bad `%` or control character invalid; `url` tag and `res.url` as Go prints them.
 */

/** Go's parse of a URL: the request-target sent, `res.url`, k6's `url` tag; the scheme lower-cased. */
export interface GoUrl {
  readonly target: string;
  readonly shown: string;
  readonly tag: string;
  readonly scheme: string;
  /** As written: `user:password`, `host:port`. */
  readonly user: string;
  readonly host: string;
}

const encoder = new TextEncoder();
// deno-lint-ignore no-control-regex
const CONTROL = /[\x00-\x1f\x7f]/;
/** Scheme, authority, path, query and fragment, each split where Go's parse splits them. */
const PARTS = /^(?:([A-Za-z][A-Za-z0-9+.-]*):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/s;
const BAD = /%(?![0-9a-fA-F]{2}).{0,2}/s;
/** Bytes Go's `validEncoded` keeps in a path as written; any other printable ASCII is escaped. */
const KEPT = /^[A-Za-z0-9\-_.~!$&'()*+,;=:@[\]%/]*$/;
/** Bytes Go's `shouldEscape` leaves in an escaped path. */
const BARE = /[A-Za-z0-9\-_.~$&+,/:;=@]/;

/** `href` (absolute, or a path) as Go parses it, or Go's reason it is no URL (`invalid URL escape "%zz"`). */
export function goUrl(href: string): GoUrl | string {
  if (CONTROL.test(href)) return "net/url: invalid control character in URL";
  const [, given = "", authority = "", path, query, fragment = ""] = PARTS.exec(href)!;
  const bad = BAD.exec(path) ?? BAD.exec(fragment);
  if (bad !== null) return `invalid URL escape ${JSON.stringify(bad[0])}`;
  const at = authority.lastIndexOf("@"), user = at < 0 ? "" : authority.slice(0, at);
  const host = authority.slice(at + 1), tail = escapedPath(path) + (query === undefined ? "" : `?${query}`);
  const scheme = given.toLowerCase(),
    lead = scheme && `${scheme}://`,
    end = fragment && `#${escapedPath(fragment)}`;
  const masked = user && (user.includes(":") ? "****:****@" : "****@");
  const target = tail.startsWith("/") ? tail : `/${tail}`;
  return {
    target,
    shown: `${lead}${user && `${user}@`}${host}${tail}${end}`,
    tag: `${lead}${masked}${host}${tail}${end}`,
    scheme,
    user,
    host,
  };
}

/** Go's `EscapedPath` of `raw`: as written when Go keeps it, else each byte it escapes as `%XX`. */
function escapedPath(raw: string): string {
  if (KEPT.test(raw)) return raw;
  const bytes = encoder.encode(raw);
  let out = "";
  for (let i = 0; i < bytes.length; i++) {
    // A `%XX` names its byte: Go decodes the path, then escapes each byte again.
    const b = bytes[i] === 37 ? parseInt(String.fromCharCode(bytes[++i], bytes[++i]), 16) : bytes[i];
    out += b < 128 && BARE.test(String.fromCharCode(b))
      ? String.fromCharCode(b)
      : `%${b < 16 ? "0" : ""}${b.toString(16).toUpperCase()}`;
  }
  return out;
}
