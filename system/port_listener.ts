/**
 * @module
 * Which process listens on a TCP port (Linux: the socket inode in `/proc/net/tcp{,6}`, then its holder
 * among `/proc/<pid>/fd`), for a server loadlab did not start; null where that cannot be seen.
 */

/** The inodes of sockets listening on `port` (state 0A) in `/proc/net/tcp` text. */
export function listeningInodes(table: string, port: number): string[] {
  return table.split("\n").slice(1).flatMap((line) => {
    const f = line.trim().split(/\s+/);
    return f.length >= 10 && f[3] === "0A" && parseInt(f[1].split(":")[1], 16) === port ? [f[9]] : [];
  });
}

/** The pid of the lowest-numbered process holding a socket listening on `port`, or null. */
export function listeningPid(port: number): number | null {
  const inodes = new Set<string>();
  for (const name of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    try {
      for (const inode of listeningInodes(Deno.readTextFileSync(name), port)) inodes.add(inode);
    } catch {
      continue;
    }
  }
  if (inodes.size === 0) return null;
  let pids: number[];
  try {
    pids = [...Deno.readDirSync("/proc")].map((e) => Number(e.name)).filter(Number.isInteger);
  } catch {
    return null;
  }
  for (const pid of pids.sort((a, b) => a - b)) {
    let fds: Deno.DirEntry[];
    try {
      fds = [...Deno.readDirSync(`/proc/${pid}/fd`)];
    } catch {
      continue; // gone, or another user's
    }
    for (const fd of fds) {
      if (inodes.has(socketInode(`/proc/${pid}/fd/${fd.name}`) ?? "")) return pid;
    }
  }
  return null;
}

function socketInode(fdPath: string): string | null {
  try {
    return /^socket:\[(\d+)\]$/.exec(Deno.readLinkSync(fdPath))?.[1] ?? null;
  } catch {
    return null;
  }
}
