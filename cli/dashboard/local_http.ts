/**
 * @module
 * Guards of loadlab's own web servers, which serve results unauthenticated: `Host` must name this machine.
 */

/** Host names a browser on this machine uses for a loopback server. */
const LOCAL_NAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** The name part of a `Host` header value: `[::1]:8080` → `[::1]`, `localhost:80` → `localhost`. */
function hostName(header: string): string {
  const value = header.trim().toLowerCase();
  if (value.startsWith("[")) return value.slice(0, value.indexOf("]") + 1);
  const colon = value.indexOf(":");
  return colon === -1 ? value : value.slice(0, colon);
}

/** `--host` as it appears in a Host header (an IPv6 address in brackets). */
function asHostName(listenHost: string): string {
  const host = listenHost.toLowerCase();
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

/** Whether a host name (`[::1]`, `localhost`) is loopback's or `--host`'s. */
export function isOwnHost(name: string, listenHost: string): boolean {
  return LOCAL_NAMES.has(name) || name === asHostName(listenHost);
}

/** A 421 response when the Host header names neither loopback nor `--host`; null when it may be served. */
export function rejectForeignHost(req: Request, listenHost: string): Response | null {
  const header = req.headers.get("host");
  if (isOwnHost(header === null ? "" : hostName(header), listenHost)) return null;
  return new Response(
    `misdirected request: this server answers only to localhost, 127.0.0.1, [::1] or ${listenHost}\n`,
    { status: 421, headers: { "content-type": "text/plain; charset=utf-8" } },
  );
}

export function badPathResponse(): Response {
  return new Response("bad request: malformed %-escape in the path\n", {
    status: 400,
    headers: { "content-type": "text/plain; charset=utf-8" },
  });
}
