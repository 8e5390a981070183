/**
 * @module
 * How a run's target host becomes the one address every libc-transport connect uses. Off the hot path.
 */
import { libc, SOCK_STREAM } from "./epoll/ffi.ts";
import { AF_INET, AF_INET6, type SockAddr, sockAddrOf } from "./sock_addr.ts";

export function resolveOnce(hostname: string, port: number): SockAddr {
  const literal = /^[\d.]+$/.test(hostname) || hostname.includes(":");
  const ip = literal ? hostname : resolveHost(hostname)[0];
  if (ip === undefined) throw new Error(`cannot resolve ${hostname}: no address`);
  return sockAddrOf(ip, port);
}

/** `host`'s addresses by `getaddrinfo` (so /etc/hosts counts), IPv4 first; once per run. */
export function resolveHost(host: string): string[] {
  const c = libc();
  const hints = new Uint8Array(48);
  const hv = new DataView(hints.buffer);
  hv.setInt32(8, SOCK_STREAM, true); // ai_socktype
  const out = new BigUint64Array(1);
  const name = new TextEncoder().encode(host + "\0");
  const rc = c.getaddrinfo(name, null, hints, new Uint8Array(out.buffer));
  if (rc !== 0) throw new Error(`cannot resolve ${host} (getaddrinfo error ${rc})`);
  const head = Deno.UnsafePointer.create(out[0]);
  const found: string[] = [];
  try {
    for (let p = head; p !== null;) {
      const info = new Deno.UnsafePointerView(p);
      const family = info.getInt32(4);
      const addr = info.getPointer(24);
      if (addr !== null) {
        const sa = new Deno.UnsafePointerView(addr);
        if (family === AF_INET) found.push(Array.from({ length: 4 }, (_, k) => sa.getUint8(4 + k)).join("."));
        if (family === AF_INET6) {
          const words = Array.from(
            { length: 8 },
            (_, k) => ((sa.getUint8(8 + 2 * k) << 8) | sa.getUint8(9 + 2 * k)).toString(16),
          );
          found.push(words.join(":"));
        }
      }
      p = info.getPointer(40);
    }
  } finally {
    if (head !== null) c.freeaddrinfo(head);
  }
  return [...new Set(found)].sort((a, b) => Number(a.includes(":")) - Number(b.includes(":")));
}
