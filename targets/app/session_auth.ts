/**
 * @module
 * The built-in target's login pair: `POST /login` answers a token and a `session` cookie, `GET /me` needs
 * both. Both are signed, not stored, so every reuse-port instance accepts what another issued.
 */

/** A test target: the point is the round trip, not the secret. */
export const LOGIN_PASSWORD = "secret";

/** FNV-1a of `text` as 8 hex digits: makes a hand-made token fail; not a security boundary. */
function fnv(text: string): string {
  let h = 0x811c9dc5;
  for (let k = 0; k < text.length; k++) {
    h ^= text.charCodeAt(k);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}

function sign(kind: string, user: string): string {
  const id = encodeURIComponent(user);
  return `${kind}.${id}.${fnv(`${kind}:${id}:loadlab`)}`;
}

/** The user a signed value of `kind` names, or null when it is not one of ours. */
function verify(kind: string, value: string | null | undefined): string | null {
  const parts = value?.split(".");
  if (parts?.length !== 3 || parts[0] !== kind || fnv(`${kind}:${parts[1]}:loadlab`) !== parts[2]) {
    return null;
  }
  try {
    return decodeURIComponent(parts[1]);
  } catch {
    return null;
  }
}

/** The token and cookie value for a login body, or null when the login fails. */
export function login(body: unknown): { token: string; session: string; user: string } | null {
  if (body === null || typeof body !== "object") return null;
  const { user, password } = body as Record<string, unknown>;
  if (typeof user !== "string" || user === "" || password !== LOGIN_PASSWORD) return null;
  return { token: sign("t", user), session: sign("s", user), user };
}

function sessionCookie(cookie: string | null | undefined): string | null {
  for (const part of (cookie ?? "").split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === "session") return rest.join("=");
  }
  return null;
}

/** The user of a request with a valid bearer token and session cookie of the same user, or null. */
export function whoAmI(
  authorization: string | null | undefined,
  cookie: string | null | undefined,
): string | null {
  const bearer = authorization?.startsWith("Bearer ") ? authorization.slice(7).trim() : null;
  const user = verify("t", bearer);
  return user !== null && verify("s", sessionCookie(cookie)) === user ? user : null;
}
