/**
 * @module
 * How many local ports one source address has for connections to one destination: the kernel's ephemeral
 * range (`net.ipv4.ip_local_port_range`, 32768-60999 by default: 28,232 ports), read before a load so a
 * crowd larger than the ports of its source addresses is refused with the fix instead of failing its
 * connects with EADDRNOTAVAIL mid-run. `null` where it cannot be read (not Linux).
 */

/** The ports of "32768\t60999"; null when it is not a range. */
export function parsePortRange(text: string): number | null {
  const m = text.trim().match(/^(\d+)\s+(\d+)$/);
  if (!m) return null;
  const [low, high] = [Number(m[1]), Number(m[2])];
  return high >= low ? high - low + 1 : null;
}

/** The local ports a source address has per destination, or null when unknown. */
export function readLocalPorts(): number | null {
  try {
    return parsePortRange(Deno.readTextFileSync("/proc/sys/net/ipv4/ip_local_port_range"));
  } catch {
    return null;
  }
}
