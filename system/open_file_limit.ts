/**
 * @module
 * The soft open-file limit, read before a load so `-c 5000` under `ulimit -n 1024` fails with advice.
 * Linux: /proc/self/limits (as raised by Deno); elsewhere `ulimit -n`. Null means unknown.
 */

/** Soft RLIMIT_NOFILE; `Infinity` when unlimited. */
export function readOpenFileLimit(): number | null {
  return fromProcLimits() ?? fromShell();
}

/** The soft limit in the "Max open files" row of /proc/<pid>/limits. */
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
