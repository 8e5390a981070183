/**
 * @module
 * Where an output path really leads and how to write there: a regular file is replaced by rename, a
 * symlink's file replaced, a device or FIFO written through (a FIFO with no reader fails after a few
 * seconds). Also the check that an output is none of the command's inputs or other outputs (by inode).
 */

/** What a path leads to: a regular file (or nothing yet), or a special file to write through. */
export type OutputTarget =
  | { kind: "file"; path: string }
  | { kind: "device"; path: string }
  | { kind: "fifo"; path: string };

/** How long a write waits for a process to open a FIFO for reading. */
const FIFO_READER_WAIT_MS = 5000;
const MAX_SYMLINK_HOPS = 40;

/** A path that cannot take an output (a folder, a socket, a symlink loop); the message is the reason. */
export class OutputPathError extends Error {
  override name = "OutputPathError";
}

/** The folder of `path` ("." for a bare name, "/" at the root). */
export function dirOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash < 0 ? "." : slash === 0 ? "/" : path.slice(0, slash);
}

/** Follows symlinks to the path they end at, which may not exist yet (a dangling link is created through). */
function followLinks(path: string): string {
  for (let hop = 0; hop < MAX_SYMLINK_HOPS; hop++) {
    let info: Deno.FileInfo | null = null;
    try {
      info = Deno.lstatSync(path);
    } catch {
      // Not there: written as a new file.
    }
    if (!info?.isSymlink) return path;
    const link = Deno.readLinkSync(path);
    path = link.startsWith("/") ? link : `${dirOf(path)}/${link}`;
  }
  throw new OutputPathError("too many levels of symbolic links");
}

/** Resolves `path` for writing; throws OutputPathError for a folder or a socket. */
export async function resolveOutput(path: string): Promise<OutputTarget> {
  const real = followLinks(path);
  const info = await Deno.stat(real).catch(() => null);
  if (!info || info.isFile) return { kind: "file", path: real };
  if (info.isDirectory) throw new OutputPathError("is a directory");
  if (info.isFifo) return { kind: "fifo", path: real };
  if (info.isCharDevice || info.isBlockDevice) return { kind: "device", path: real };
  throw new OutputPathError("is a socket or another special file that cannot take an output");
}

/**
 * Opens a FIFO for writing once a reader has it open. Opening blocks in a worker thread until then; when
 * none comes in time, opening the read end ourselves releases that thread, and the write fails.
 */
async function openFifo(path: string): Promise<Deno.FsFile> {
  const opening = Deno.open(path, { write: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const file = await Promise.race([
    opening,
    new Promise<null>((r) => timer = setTimeout(() => r(null), FIFO_READER_WAIT_MS)),
  ]);
  clearTimeout(timer);
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
    const data = new TextEncoder().encode(text);
    for (let done = 0; done < data.length;) done += await file.write(data.subarray(done));
  } finally {
    file.close();
  }
}

/** Appends `text` to the file at `path` (created when missing); a device or a FIFO is written through. */
export async function appendText(path: string, text: string): Promise<void> {
  const target = await resolveOutput(path);
  if (target.kind !== "file") return await writeThrough(target, text);
  await Deno.writeTextFile(target.path, text, { append: true });
}

/** The same regular file by device and inode (following symlinks); false when either does not exist. */
export function sameFile(a: string, b: string): boolean {
  const stat = (p: string) => {
    try {
      return Deno.statSync(p);
    } catch {
      return null;
    }
  };
  const [x, y] = [stat(a), stat(b)];
  if (!x || !y || x.ino === null || y.ino === null) return false;
  // Two outputs to one device (-o /dev/null --report /dev/null) overwrite no input.
  return x.isFile && x.dev === y.dev && x.ino === y.ino;
}

/**
 * The file an output lands in, to tell two outputs apart: a regular file's device and inode, or where a
 * new one would be created (its folder's real path); null for a device or a FIFO, which takes any number
 * of writes (`-o /dev/null --report /dev/null`).
 */
function landingOf(path: string): string | null {
  try {
    const info = Deno.statSync(path);
    return info.isFile ? `inode ${info.dev}:${info.ino}` : null;
  } catch {
    // Not there yet (or unreadable, which its write will say).
  }
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

/**
 * The one-line problem when an output (`[flag, path]`) is one of the inputs (`[what, path]`), which
 * writing it would destroy, or two outputs are one file; undefined when none is. The caller exits 2 with
 * it before anything runs.
 */
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
