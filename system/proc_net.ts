/**
 * @module
 * The kernel's network counters (`/proc/net/netstat`, `/proc/net/snmp`) as `Prefix.Name` numbers, e.g.
 * `TcpExt.ListenOverflows`; null where not readable.
 */

export function parseProcNet(text: string, into: Map<string, number> = new Map()): Map<string, number> {
  const lines = text.split("\n");
  for (let i = 0; i + 1 < lines.length; i++) {
    const names = lines[i].trim().split(/\s+/);
    const values = lines[i + 1].trim().split(/\s+/);
    if (names[0] === values[0] && names[0].endsWith(":") && /^-?\d/.test(values[1] ?? "")) {
      const prefix = names[0].slice(0, -1);
      for (let k = 1; k < names.length; k++) into.set(`${prefix}.${names[k]}`, Number(values[k]));
      i++;
    }
  }
  return into;
}

export function readHostTcp(): Map<string, number> | null {
  try {
    const counters = parseProcNet(Deno.readTextFileSync("/proc/net/netstat"));
    return parseProcNet(Deno.readTextFileSync("/proc/net/snmp"), counters);
  } catch {
    return null;
  }
}
