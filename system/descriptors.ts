/**
 * @module
 * File descriptors: the soft limit (`-c 5000` past `ulimit -n 1024` fails with advice), a reserve for writes.
 */
import { programOutput, readTextOrNull } from "./path_lookup.ts";

/** Soft RLIMIT_NOFILE; `Infinity` when unlimited. */
export function readOpenFileLimit(): number | null {
  return parseProcLimits(readTextOrNull("/proc/self/limits") ?? "") ??
    parseLimit(programOutput("sh", ["-c", "ulimit -n"]) ?? undefined);
}

/** The soft limit in the "Max open files" row of /proc/<pid>/limits. */
export function parseProcLimits(text: string): number | null {
  const row = text.split("\n").find((line) => line.startsWith("Max open files"));
  return parseLimit(row?.slice("Max open files".length).trim().split(/\s+/)[0]);
}

function parseLimit(text: string | undefined): number | null {
  if (text === "unlimited") return Infinity;
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : null;
}

/** `/dev/null` where it exists: opening it costs nothing and touches no file. */
const PLACEHOLDER = Deno.build.os === "windows" ? "NUL" : "/dev/null";
const RESERVED = 8;

export class DescriptorReserve {
  #held: Deno.FsFile[] = [];

  constructor() {
    this.#take();
  }

  /** Runs `write` with the reserved descriptors free, then takes them again. */
  async around<T>(write: () => Promise<T>): Promise<T> {
    this.close();
    try {
      return await write();
    } finally {
      this.#take();
    }
  }

  close(): void {
    for (const file of this.#held.splice(0)) file.close();
  }

  #take(): void {
    try {
      while (this.#held.length < RESERVED) this.#held.push(Deno.openSync(PLACEHOLDER));
    } catch {
      // Out of descriptors already, or no such device: writes go without a reserve.
    }
  }
}

const internal = Deno as unknown as { internal: symbol } & Record<symbol, { core: { resources(): object } }>;
const { core } = internal[internal.internal];
/** This isolate's runtime resources as [id, kind] (sockets, listeners, files), but a library it loaded. */
export const runtimeResources = () =>
  Object.entries(core.resources()).filter(([, k]) => k !== "dynamicLibrary");

/** Closes a socket, listener or stream that may be closed already. */
export function closeQuietly(c: { close(): void }): void {
  try {
    c.close();
  } catch { /* closed already */ }
}
