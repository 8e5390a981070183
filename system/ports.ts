/**
 * @module
 * Free loopback ports outside the kernel's ephemeral range (no client socket takes one before the listen),
 * waits for a port to accept, the source ports and addresses a load may use, and who listens on a port.
 */
import { sleepUnlessAborted } from "./sleep.ts";
import { readTextOrNull } from "./path_lookup.ts";

/** Clear of the well-known and most registered service ports. */
const LOWEST_PORT = 10_000;
const TRIES = 64;
/** Linux's default ephemeral range, assumed where the kernel does not say. */
const DEFAULT_EPHEMERAL: readonly [number, number] = [32_768, 60_999];

let pickRange: readonly [number, number] | null | undefined;

/** The wider gap below or above the ephemeral range (at least 1,000 ports), or null. */
export function rangeOutside(ephemeral: readonly [number, number]): readonly [number, number] | null {
  const below: [number, number] = [LOWEST_PORT, ephemeral[0] - 1];
  const above: [number, number] = [Math.max(LOWEST_PORT, ephemeral[1] + 1), 65_535];
  const best = below[1] - below[0] >= above[1] - above[0] ? below : above;
  return best[1] - best[0] >= 1_000 ? best : null;
}

/** `net.ipv4.ip_local_port_range`: the local ports a source address has per destination; null off Linux. */
function localPortRange(): [number, number] | null {
  const m = readTextOrNull("/proc/sys/net/ipv4/ip_local_port_range")?.trim().match(/^(\d+)\s+(\d+)$/);
  return m && Number(m[1]) <= Number(m[2]) ? [Number(m[1]), Number(m[2])] : null;
}

/** How many local ports one source address has per destination, so a larger crowd is refused up front. */
export function readLocalPorts(): number | null {
  const range = localPortRange();
  return range && range[1] - range[0] + 1;
}

/** The first of `addresses` this host cannot bind, with the error in words; null when every one binds. */
export function unbindableAddress(addresses: readonly string[]): string | null {
  for (const hostname of addresses) {
    try {
      Deno.listen({ hostname, port: 0 }).close();
    } catch (err) {
      return `${hostname}: ${err instanceof Error ? err.message : String(err)}`;
    }
  }
  return null;
}

/** A TCP port on `host` that was free a moment ago. */
export function freePort(host = "127.0.0.1"): number {
  if (pickRange === undefined) pickRange = rangeOutside(localPortRange() ?? DEFAULT_EPHEMERAL);
  const range = pickRange;
  for (let i = 0; range !== null && i < TRIES; i++) {
    const port = range[0] + Math.floor(Math.random() * (range[1] - range[0] + 1));
    try {
      Deno.listen({ hostname: host, port }).close();
      return port;
    } catch {
      // In use (or not ours to bind): try another.
    }
  }
  const listener = Deno.listen({ hostname: host, port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** The host part of a URL for a listening address (an any-address is reached on loopback). */
export function urlHost(host: string): string {
  if (host === "0.0.0.0" || host === "::") return "127.0.0.1";
  return host.includes(":") ? `[${host}]` : host;
}

/** True once `host:port` accepts, false after `timeoutMs` or once `gaveUp()` says its process is gone. */
export async function waitForPort(host: string, port: number, timeoutMs: number, gaveUp = () => false) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !gaveUp()) {
    if (await accepts(`http://${urlHost(host)}:${port}`)) return true;
    await sleepUnlessAborted(50);
  }
  return false;
}

/** True when the host and port of `url` accept a TCP connection within a second. */
export async function accepts(url: string): Promise<boolean> {
  const { hostname, port, protocol } = new URL(url);
  try {
    const conn = await Deno.connect({
      hostname: hostname.replace(/^\[|\]$/g, ""),
      port: Number(port || (protocol === "https:" ? 443 : 80)),
      signal: AbortSignal.timeout(1000),
    });
    conn.close();
    return true;
  } catch {
    return false;
  }
}

/** The inodes of sockets listening on `port` (state 0A) in `/proc/net/tcp` text. */
export function listeningInodes(table: string, port: number): string[] {
  return table.split("\n").slice(1).flatMap((line) => {
    const f = line.trim().split(/\s+/);
    return f.length >= 10 && f[3] === "0A" && parseInt(f[1].split(":")[1], 16) === port ? [f[9]] : [];
  });
}

/**
 * The pid of the lowest-numbered process listening on `port`, or null: this process's ancestors first (forked
 * servers share the topmost holder's port), then a slow walk over all descriptors, kept off a first request.
 */
export async function listeningPid(port: number): Promise<number | null> {
  const inodes = new Set<string>();
  for (const name of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    const table = await Deno.readTextFile(name).catch(() => ""); // no IPv6, or not Linux
    for (const inode of listeningInodes(table, port)) inodes.add(`socket:[${inode}]`);
  }
  if (inodes.size === 0) return null;
  const holds = async (pid: number) => {
    const links: Promise<string | null>[] = [];
    try {
      for await (const fd of Deno.readDir(`/proc/${pid}/fd`)) {
        links.push(Deno.readLink(`/proc/${pid}/fd/${fd.name}`).catch(() => null));
      }
    } catch {
      return false; // gone, or another user's
    }
    return (await Promise.all(links)).some((link) => link !== null && inodes.has(link));
  };
  const ancestors: number[] = [];
  for (let pid = Deno.pid; pid > 1;) {
    ancestors.unshift(pid);
    pid = Number(
      /^PPid:\s*(\d+)/m.exec(await Deno.readTextFile(`/proc/${pid}/status`).catch(() => ""))?.[1] ?? 0,
    );
  }
  for (const pid of ancestors) if (await holds(pid)) return pid;
  const pids: number[] = [];
  try {
    for await (const e of Deno.readDir("/proc")) if (/^\d+$/.test(e.name)) pids.push(Number(e.name));
  } catch {
    return null;
  }
  for (const pid of pids.sort((a, b) => a - b)) if (await holds(pid)) return pid;
  return null;
}
