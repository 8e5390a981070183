/**
 * @module
 * The one reader of input files (request bodies, experiment files, results files): it reads a regular
 * file of at most a given number of bytes, and refuses anything else with a reason in words before
 * reading a byte. A device (`/dev/zero`), a FIFO or a socket would be read forever or block; a file over
 * its cap would be held whole in memory (and parsed) before anything could say it is too big. The file is
 * checked with `stat` before it is opened, since opening a FIFO blocks until a writer comes, and read
 * only up to the size it had then, so a file that grows after the check is refused, not read on.
 */
import { osErrorText } from "./os_error.ts";

/** Why an input file could not be read: `reason` is a phrase such as "no such file" or "is a folder". */
export class FileReadError extends Error {
  override name = "FileReadError";
  constructor(readonly path: string, readonly reason: string, options?: ErrorOptions) {
    super(`${path}: ${reason}`, options);
  }
}

/** `16 MiB`, `1.5 KiB`, `300 bytes`: a size in the unit a cap is written in. */
export function formatCap(bytes: number): string {
  const units = [["GiB", 2 ** 30], ["MiB", 2 ** 20], ["KiB", 2 ** 10]] as const;
  for (const [unit, size] of units) {
    if (bytes >= size) return `${Number((bytes / size).toFixed(1))} ${unit}`;
  }
  return `${bytes} bytes`;
}

/** The bytes of the regular file at `path`, at most `maxBytes`; otherwise throws `FileReadError`. */
export function readFileCapped(path: string, maxBytes: number): Uint8Array<ArrayBuffer> {
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(path);
  } catch (err) {
    throw new FileReadError(path, statProblem(err), { cause: err });
  }
  if (info.isDirectory) throw new FileReadError(path, "is a folder");
  if (!info.isFile) throw new FileReadError(path, `is ${specialKind(info)}, not a regular file`);
  if (info.size > maxBytes) throw tooLarge(path, info.size, maxBytes);
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(path, { read: true });
  } catch (err) {
    throw new FileReadError(path, statProblem(err), { cause: err });
  }
  try {
    // One byte more than the size: a file that grew since the check is caught, not read on.
    const buf = new Uint8Array(info.size + 1);
    let length = 0;
    while (length < buf.length) {
      const n = file.readSync(buf.subarray(length));
      if (n === null) return buf.slice(0, length);
      length += n;
    }
    throw new FileReadError(path, "grew while it was read; read it once it is written");
  } finally {
    file.close();
  }
}

/** Reads `file` into `buf` from where it stands until `buf` is full or the file ends; the bytes read. */
export async function readInto(file: Deno.FsFile, buf: Uint8Array): Promise<number> {
  let n = 0;
  while (n < buf.length) {
    const got = await file.read(buf.subarray(n));
    if (got === null) break;
    n += got;
  }
  return n;
}

/** The text (UTF-8) of the regular file at `path`, at most `maxBytes`; otherwise throws `FileReadError`. */
export function readTextFileCapped(path: string, maxBytes: number): string {
  return new TextDecoder().decode(readFileCapped(path, maxBytes));
}

function tooLarge(path: string, size: number, maxBytes: number): FileReadError {
  return new FileReadError(
    path,
    `is ${formatCap(size)}, over the cap of ${formatCap(maxBytes)}`,
  );
}

function specialKind(info: Deno.FileInfo): string {
  if (info.isFifo) return "a FIFO";
  if (info.isCharDevice) return "a character device";
  if (info.isBlockDevice) return "a block device";
  if (info.isSocket) return "a socket";
  return "a special file";
}

/** Why a path could not be looked at, in words. */
function statProblem(err: unknown): string {
  if (err instanceof Deno.errors.NotFound) return "no such file";
  if (err instanceof Deno.errors.NotADirectory) return "a part of the path is a file";
  if (err instanceof Deno.errors.PermissionDenied) return "cannot be read (permission denied)";
  if (err instanceof Deno.errors.IsADirectory) return "is a folder";
  return `cannot be read (${osErrorText(err)})`;
}
