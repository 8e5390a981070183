/**
 * @module
 * Output files written whole or not at all (temp file + rename), and the probe that an output can be written;
 * an OS error's reason without Deno's trailing call and paths (often a temp file the user never named).
 */
import { dirOf, resolveOutput, writeThrough } from "./output_file.ts";

/** Writes text via a temp file renamed over `path`; on failure the old file stays, `WriteError` names it. */
export async function writeTextAtomic(path: string, text: string): Promise<void> {
  let tmp: string | undefined;
  try {
    const target = await resolveOutput(path);
    if (target.kind !== "file") return await writeThrough(target, text);
    const real = target.path;
    const slash = real.lastIndexOf("/");
    tmp = `${real.slice(0, slash + 1)}.${real.slice(slash + 1)}.${Deno.pid}.${
      crypto.randomUUID().slice(0, 8)
    }.tmp`;
    await Deno.writeTextFile(tmp, text);
    await Deno.rename(tmp, real);
  } catch (err) {
    if (tmp) await Deno.remove(tmp).catch(() => {});
    throw new WriteError(path, osErrorText(err), { cause: err });
  }
}

/** `writeTextAtomic`, synchronous, for the second Ctrl-C: done before the process exits. */
export function writeTextAtomicSync(path: string, text: string): void {
  let real = path;
  try {
    real = Deno.realPathSync(path);
    if (!Deno.statSync(real).isFile) return Deno.writeTextFileSync(real, text);
  } catch { /* not there yet: written new */ }
  const tmp = `${real}.${Deno.pid}.quit.tmp`;
  Deno.writeTextFileSync(tmp, text);
  Deno.renameSync(tmp, real);
}

/** An output file could not be written; `reason` is the OS error, e.g. "No space left on device". */
export class WriteError extends Error {
  override name = "WriteError";
  constructor(readonly path: string, readonly reason: string, options?: ErrorOptions) {
    super(`${reason}: '${path}'`, options);
  }
}

/** Throws unless a file can be created at `path`: checked before any load, so a typo costs no run. */
export async function assertFileWritable(path: string): Promise<void> {
  const target = await resolveOutput(path);
  if (target.kind === "fifo") return;
  if (target.kind === "device") return (await Deno.open(target.path, { write: true })).close();
  await probeFolder(dirOf(target.path));
}

/** Throws when the folder `dir` cannot be created or take a new file. */
export async function assertWritable(dir: string): Promise<void> {
  await Deno.mkdir(dir, { recursive: true });
  await probeFolder(dir);
}

async function probeFolder(dir: string): Promise<void> {
  const probe = `${dir}/.loadlab-write-check-${Deno.pid}`;
  await Deno.writeTextFile(probe, "");
  await Deno.remove(probe);
}

export function osErrorText(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.replace(/: [a-z]+ '.*$/s, "");
}
