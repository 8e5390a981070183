/**
 * @module
 * Writing an output file whole or not at all, and the one probe that an output can be written before any
 * load is sent. Writes go to a temporary file in the same folder that is then renamed, so a crash
 * mid-write never leaves a truncated file in place of a good one (experiments rewrite results.json and
 * report.html after every run). Where a path leads (a symlink, a device, a FIFO) is output_file.ts's.
 */
import { dirOf, resolveOutput, writeThrough } from "./output_file.ts";
import { osErrorText } from "./os_error.ts";

/**
 * Writes text atomically: temp file in the same directory, then rename over the target. A symlink is
 * followed and the file it names replaced; a device or FIFO is written through, never replaced
 * (output_file.ts). On failure (a full disk, a missing folder) the old file is untouched, the temp file
 * removed, and a `WriteError` names `path`, not the temp file the OS error is about.
 */
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

/**
 * `writeTextAtomic` for the moment loadlab quits (a second Ctrl-C): synchronous, so it is done before the
 * process exits; a symlink is followed, anything but a file written through.
 */
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

/**
 * An output file could not be written: `reason` is the OS error, e.g. "No space left on device (os error
 * 28)".
 */
export class WriteError extends Error {
  override name = "WriteError";
  constructor(readonly path: string, readonly reason: string, options?: ErrorOptions) {
    super(`${reason}: '${path}'`, options);
  }
}

/**
 * Throws unless a file can be created at `path` (its folder exists and takes a new file; the path is not
 * a folder). Checked before any load, so a typo costs no run. A symlink is checked where it leads; a
 * device is opened for writing (no probe file beside it, none under /dev), and a FIFO is taken as it is,
 * since its reader may start later.
 */
export async function assertFileWritable(path: string): Promise<void> {
  const target = await resolveOutput(path);
  if (target.kind === "fifo") return;
  if (target.kind === "device") return (await Deno.open(target.path, { write: true })).close();
  await probeFolder(dirOf(target.path));
}

/** Throws when the folder `dir` cannot be created or take a new file; checked before any load is sent. */
export async function assertWritable(dir: string): Promise<void> {
  await Deno.mkdir(dir, { recursive: true });
  await probeFolder(dir);
}

/** The write probe: creates an empty file in `dir` and removes it again. */
async function probeFolder(dir: string): Promise<void> {
  const probe = `${dir}/.loadlab-write-check-${Deno.pid}`;
  await Deno.writeTextFile(probe, "");
  await Deno.remove(probe);
}
