/**
 * @module
 * Finds processes by the mark loadlab puts on every child (`LOADLAB_RUN_ID`, targets/process.ts) by
 * reading /proc/<pid>/environ, so an orphan re-parented to init is found, which a scan of our own
 * descendants would miss. Linux only; zombies (already dead, waiting to be reaped) have an empty
 * environ and are not listed.
 */
import { RUN_ID_ENV } from "../targets/process.ts";

export interface MarkedProcess {
  pid: number;
  ppid: number;
  /** The command line, arguments joined by spaces. */
  command: string;
  /** The value of the mark. */
  runId: string;
}

/** Every live process whose environment has `LOADLAB_RUN_ID`, optionally only with this value. */
export function markedProcesses(runId?: string): MarkedProcess[] {
  const found: MarkedProcess[] = [];
  const prefix = `${RUN_ID_ENV}=`;
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const environ = readProc(entry.name, "environ");
    const mark = environ?.split("\0").find((v) => v.startsWith(prefix));
    if (mark === undefined) continue;
    const value = mark.slice(prefix.length);
    if (runId !== undefined && value !== runId) continue;
    const pid = Number(entry.name);
    found.push({ pid, ppid: parentOf(pid), command: commandOf(pid), runId: value });
  }
  return found;
}

/** The parent pid from /proc/<pid>/stat (0 when the process is gone). */
export function parentOf(pid: number): number {
  const stat = readProc(String(pid), "stat");
  // The command name in parentheses may hold spaces: fields count from the last ')'.
  return stat ? Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) : 0;
}

/** This process and its ancestors up to init: they carry the suite's mark by design. */
export function selfAndAncestors(): Set<number> {
  const pids = new Set<number>();
  for (let pid = Deno.pid; pid > 1 && !pids.has(pid); pid = parentOf(pid)) pids.add(pid);
  return pids;
}

/** `pid 123 (parent 1): redis-server --port ...` for failure messages. */
export function describeProcesses(processes: MarkedProcess[]): string {
  return processes.map((p) => `pid ${p.pid} (parent ${p.ppid}): ${p.command}`).join("\n");
}

/** Polls until no process carries `runId`; returns what is still there after `withinMs`. */
export async function waitUntilGone(runId: string, withinMs: number): Promise<MarkedProcess[]> {
  const deadline = Date.now() + withinMs;
  const self = selfAndAncestors();
  for (;;) {
    const left = markedProcesses(runId).filter((p) => !self.has(p.pid));
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((r) => setTimeout(r, 100));
  }
}

function commandOf(pid: number): string {
  return readProc(String(pid), "cmdline")?.split("\0").filter(Boolean).join(" ") ?? "?";
}

function readProc(pid: string, file: string): string | null {
  try {
    return new TextDecoder().decode(Deno.readFileSync(`/proc/${pid}/${file}`));
  } catch {
    return null; // gone, or another user's process
  }
}
