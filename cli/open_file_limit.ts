/**
 * @module
 * The soft open-file limit of this process, read before any load so `-c 5000` on a 1024-descriptor
 * shell fails with advice instead of a storm of connect errors mid-run. Linux exposes it in
 * /proc/self/limits (already raised by Deno at start-up, so it is the limit that applies); elsewhere the
 * shell's `ulimit -n` is asked. `null` means unknown, and the caller then skips the check. What a load
 * may hold under it is runner/socket_budget.ts.
 */

/** Soft RLIMIT_NOFILE, `Infinity` when unlimited, `null` when it cannot be read. */
export function readOpenFileLimit(): number | null {
  return fromProcLimits() ?? fromShell();
}

/** Parses the "Max open files" row of /proc/<pid>/limits (soft limit column). */
export function parseProcLimits(text: string): number | null {
  const row = text.split("\n").find((line) => line.startsWith("Max open files"));
  const soft = row?.slice("Max open files".length).trim().split(/\s+/)[0];
  return parseLimit(soft);
}

function parseLimit(text: string | undefined): number | null {
  if (text === "unlimited") return Infinity;
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : null;
}

function fromProcLimits(): number | null {
  try {
    return parseProcLimits(Deno.readTextFileSync("/proc/self/limits"));
  } catch {
    return null;
  }
}

function fromShell(): number | null {
  try {
    const out = new Deno.Command("sh", { args: ["-c", "ulimit -n"], stdout: "piped", stderr: "null" })
      .outputSync();
    return out.success ? parseLimit(new TextDecoder().decode(out.stdout).trim()) : null;
  } catch {
    return null;
  }
}
