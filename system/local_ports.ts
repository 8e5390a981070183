/**
 * @module
 * The local ports one source address has per destination (`net.ipv4.ip_local_port_range`), so a crowd
 * larger than them is refused before the run instead of failing with EADDRNOTAVAIL; null off Linux.
 */

function parsePortRange(text: string): number | null {
  const m = text.trim().match(/^(\d+)\s+(\d+)$/);
  if (!m) return null;
  const [low, high] = [Number(m[1]), Number(m[2])];
  return high >= low ? high - low + 1 : null;
}

export function readLocalPorts(): number | null {
  try {
    return parsePortRange(Deno.readTextFileSync("/proc/sys/net/ipv4/ip_local_port_range"));
  } catch {
    return null;
  }
}
