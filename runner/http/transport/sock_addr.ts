/**
 * @module
 * The socket addresses the libc transports connect to, encoded once per run; pure, so tested without FFI.
 */

// Linux address families (the same on x86_64 and aarch64).
export const AF_INET = 2;
export const AF_INET6 = 10;

/** An address to connect to, encoded once per run as a `sockaddr_in` or `sockaddr_in6`. */
export interface SockAddr {
  readonly family: typeof AF_INET | typeof AF_INET6;
  readonly bytes: Uint8Array;
  /** For messages: `127.0.0.1:8080`, `[::1]:8080`. */
  readonly text: string;
}

/** Encodes a numeric IPv4 or IPv6 address and a port; throws on anything else. */
export function sockAddrOf(ip: string, port: number): SockAddr {
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new RangeError(`bad port ${port}`);
  const v4 = ip.match(/^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/);
  if (v4) {
    const bytes = new Uint8Array(16);
    const view = new DataView(bytes.buffer);
    view.setUint16(0, AF_INET, true);
    view.setUint16(2, port, false);
    for (let k = 0; k < 4; k++) {
      const octet = Number(v4[k + 1]);
      if (octet > 255) throw new RangeError(`bad IPv4 address ${ip}`);
      bytes[4 + k] = octet;
    }
    return { family: AF_INET, bytes, text: `${ip}:${port}` };
  }
  const bytes = new Uint8Array(28);
  const view = new DataView(bytes.buffer);
  view.setUint16(0, AF_INET6, true);
  view.setUint16(2, port, false);
  bytes.set(ipv6Bytes(ip), 8);
  return { family: AF_INET6, bytes, text: `[${ip}]:${port}` };
}

/** The 16 bytes of an IPv6 literal (`::` and an embedded IPv4 tail allowed); throws when malformed. */
export function ipv6Bytes(ip: string): Uint8Array {
  const bad = () => new RangeError(`bad IP address ${ip}`);
  let text = ip.replace(/%.*$/, "");
  const tail = text.match(/:(\d+\.\d+\.\d+\.\d+)$/);
  const words: number[] = [];
  if (tail) {
    const v4 = sockAddrOf(tail[1], 0).bytes;
    text = text.slice(0, -tail[1].length) + `${((v4[4] << 8) | v4[5]).toString(16)}:` +
      ((v4[6] << 8) | v4[7]).toString(16);
  }
  const halves = text.split("::");
  if (halves.length > 2) throw bad();
  const parse = (s: string) =>
    s === "" ? [] : s.split(":").map((w) => /^[0-9a-f]{1,4}$/i.test(w) ? parseInt(w, 16) : NaN);
  const head = parse(halves[0]);
  const rest = halves.length === 2 ? parse(halves[1]) : [];
  const fill = halves.length === 2 ? 8 - head.length - rest.length : 0;
  words.push(...head, ...new Array(Math.max(0, fill)).fill(0), ...rest);
  if (words.length !== 8 || words.some((w) => Number.isNaN(w)) || fill < 0) throw bad();
  const out = new Uint8Array(16);
  words.forEach((w, k) => {
    out[2 * k] = w >> 8;
    out[2 * k + 1] = w & 0xff;
  });
  return out;
}
