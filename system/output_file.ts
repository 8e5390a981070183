/**
 * @module
 * Where an output path leads and how to write there (a file whole or not at all, a device or FIFO through),
 * the checks that an output can be written and is no input or other output, and an OS error's reason.
 */
import { statOrNull } from "./path_lookup.ts";
import { within } from "./sleep.ts";
import { writeAll } from "./write_all.ts";

type OutputTarget = { kind: "file" | "device" | "fifo"; path: string };

const FIFO_READER_WAIT_MS = 5000;
const MAX_SYMLINK_HOPS = 40;

class OutputPathError extends Error {
  override name = "OutputPathError";
}

function dirOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash < 0 ? "." : slash === 0 ? "/" : path.slice(0, slash);
}

function followLinks(path: string): string {
  for (let hop = 0; hop < MAX_SYMLINK_HOPS; hop++) {
    // Not there: written as a new file.
    if (!statOrNull(path, Deno.lstatSync)?.isSymlink) return path;
    const link = Deno.readLinkSync(path);
    // /dev/stdout of a piped process: /proc/self/fd/1 links to `pipe:[N]`, reached only through the link.
    if (/^(pipe|socket):\[/.test(link)) return path;
    path = link.startsWith("/") ? link : `${dirOf(path)}/${link}`;
  }
  throw new OutputPathError("too many levels of symbolic links");
}

async function resolveOutput(path: string): Promise<OutputTarget> {
  const real = followLinks(path);
  const info = await Deno.stat(real).catch(() => null);
  if (!info || info.isFile) return { kind: "file", path: real };
  if (info.isDirectory) throw new OutputPathError("is a directory");
  if (info.isFifo) return { kind: "fifo", path: real };
  if (info.isCharDevice || info.isBlockDevice) return { kind: "device", path: real };
  throw new OutputPathError("is a socket or another special file that cannot take an output");
}

/** Opens a FIFO once a reader has it; after the wait, opening the read end frees the blocked thread. */
async function openFifo(path: string): Promise<Deno.FsFile> {
  const opening = Deno.open(path, { write: true });
  const file = await within(opening, FIFO_READER_WAIT_MS);
  if (file) return file;
  const ourReader = await Deno.open(path, { read: true });
  (await opening).close();
  ourReader.close();
  throw new OutputPathError(
    `is a FIFO no process read within ${FIFO_READER_WAIT_MS / 1000} s (start its reader first)`,
  );
}

/** Writes `text` into an existing device or FIFO as it is: no create, no truncate, no rename. */
export async function writeThrough(target: OutputTarget, text: string): Promise<void> {
  const file = target.kind === "fifo"
    ? await openFifo(target.path)
    : await Deno.open(target.path, { write: true });
  try {
    await writeAll(file, new TextEncoder().encode(text));
  } finally {
    file.close();
  }
}

/** Appends `text` to `path` (created when missing); a device or a FIFO is written through. */
export async function appendText(path: string, text: string): Promise<void> {
  const target = await resolveOutput(path);
  if (target.kind !== "file") return await writeThrough(target, text);
  await Deno.writeTextFile(target.path, text, { append: true });
}

/** The same regular file by device and inode (following symlinks). */
export function sameFile(a: string, b: string): boolean {
  const [x, y] = [statOrNull(a), statOrNull(b)];
  if (!x || !y || x.ino === null || y.ino === null) return false;
  return x.isFile && x.dev === y.dev && x.ino === y.ino;
}

/** A regular file's device and inode, or its folder's real path when new; null for a device or FIFO. */
function landingOf(path: string): string | null {
  // Not there yet, or unreadable, which its write will say.
  const info = statOrNull(path);
  if (info !== null) return info.isFile ? `inode ${info.dev}:${info.ino}` : null;
  try {
    const real = followLinks(path);
    return `path ${Deno.realPathSync(dirOf(real))}/${real.slice(real.lastIndexOf("/") + 1)}`;
  } catch {
    return `path ${path}`;
  }
}

/** The one-line problem when two outputs are one file, the later write replacing the earlier. */
function outputsOverlap(outputs: Array<[string, string | undefined]>): string | undefined {
  const seen = new Map<string, string>();
  for (const [flag, out] of outputs) {
    const landing = out === undefined ? null : landingOf(out);
    if (landing === null) continue;
    const first = seen.get(landing);
    if (first !== undefined) {
      return `${first} and ${flag} ${out} are the same file, which the later write would replace; ` +
        `give each output its own path`;
    }
    seen.set(landing, `${flag} ${out}`);
  }
  return undefined;
}

/** The one-line problem when an output is an input (`[what, path]`) or another output; else undefined. */
export function outputClobbersInput(
  outputs: Array<[string, string | undefined]>,
  inputs: Array<[string, string | undefined]>,
): string | undefined {
  const overlap = outputsOverlap(outputs);
  if (overlap !== undefined) return overlap;
  for (const [flag, out] of outputs) {
    if (out === undefined) continue;
    for (const [what, input] of inputs) {
      if (input !== undefined && sameFile(out, input)) {
        return `${flag} ${out} is the same file as ${what} ${input}, which writing it would destroy; ` +
          `give ${flag} another path`;
      }
    }
  }
  return undefined;
}

/** Writes text via a temp file renamed over `path`; on failure the old file stays, `WriteError` names it. */
export async function writeTextAtomic(path: string, text: string): Promise<void> {
  let tmp: string | undefined;
  try {
    const target = await resolveOutput(path);
    if (target.kind !== "file") return await writeThrough(target, text);
    const real = target.path;
    tmp = tempBeside(real);
    await Deno.writeTextFile(tmp, text);
    // On this thread: a rename under way could land after a second Ctrl-C's `writeTextAtomicSync`.
    Deno.renameSync(tmp, real);
  } catch (err) {
    if (tmp) await Deno.remove(tmp).catch(() => {});
    throw new WriteError(path, osErrorText(err), { cause: err });
  }
}

/** `writeTextAtomic`, synchronous: the second Ctrl-C's (done before the process exits), the cache's. */
export function writeTextAtomicSync(path: string, text: string): void {
  let real = path;
  try {
    real = Deno.realPathSync(path);
    if (!Deno.statSync(real).isFile) return Deno.writeTextFileSync(real, text);
  } catch { /* not there yet: written new */ }
  const tmp = tempBeside(real);
  Deno.writeTextFileSync(tmp, text);
  Deno.renameSync(tmp, real);
}

/** A hidden temporary name beside `real`, the call's own: isolates of one process may write one path. */
function tempBeside(real: string): string {
  const slash = real.lastIndexOf("/");
  return `${real.slice(0, slash + 1)}.${real.slice(slash + 1)}.${Deno.pid}.${
    crypto.randomUUID().slice(0, 8)
  }.tmp`;
}

/** An output file could not be written; `reason` is the OS error, e.g. "No space left on device". */
export class WriteError extends Error {
  override name = "WriteError";
  constructor(readonly path: string, readonly reason: string, options?: ErrorOptions) {
    super(`${reason}: '${path}'`, options);
  }
}

/** Throws unless a file can be created at `path`: checked before any load, so a typo costs no run. */
async function assertFileWritable(path: string): Promise<void> {
  if (path.endsWith("/")) {
    throw new OutputPathError(`names a folder: give a file's path, e.g. ${path}results.json`);
  }
  const target = await resolveOutput(path);
  if (target.kind === "fifo") return;
  if (target.kind === "device") return (await Deno.open(target.path, { write: true })).close();
  await probeFolder(dirOf(target.path));
}

/** Throws `OutputError` naming the flag unless each `[flag, path]` given can be created. */
export async function assertFilesWritable(files: Iterable<[string, string | undefined]>): Promise<void> {
  for (const [flag, path] of files) {
    if (path === undefined) continue;
    await assertFileWritable(path).catch((err) => {
      throw new OutputError(`${flag} ${path}: cannot write: ${withWriteFix(osErrorText(err))}`, {
        cause: err,
      });
    });
  }
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

/** A write failure's text with what to do when its OS error says (a full disk, no permission, no folder). */
export function withWriteFix(message: string): string {
  if (/; (give|free) /.test(message)) return message;
  if (/os error 28\b/.test(message)) return `${message}; free space on that disk, or write elsewhere`;
  if (/os error (1|13|30)\b/.test(message)) return `${message}; give a path this user can write`;
  if (/os error 21\b|is a directory/i.test(message)) return `${message}; give a file's path, not a folder's`;
  if (!/os error 2\b/.test(message)) return message;
  const home = /(^|\s)~\//.test(message) ? " (a quoted ~ is no home folder: write $HOME/)" : "";
  return `${message}; its folder does not exist${home}: make it first, or give another path`;
}

/** An output file could not be written; exit code 5 at the CLI. */
export class OutputError extends Error {
  override name = "OutputError";
}
