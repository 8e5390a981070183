/**
 * @module
 * The reader of input files: a regular file up to a byte cap; anything else refused by `stat` before
 * opening (opening a FIFO blocks). A size-0 file (/proc) is read in pieces.
 */
import { osErrorText } from "./output_file.ts";
import { concatBytes } from "./copy_bytes.ts";

export class FileReadError extends Error {
  override name = "FileReadError";
  constructor(readonly path: string, readonly reason: string, options?: ErrorOptions) {
    super(`${path}: ${reason}`, options);
  }
}

/** `read()`'s value; a `FileReadError` it throws becomes `refuse(reason)`'s error, with it as the cause. */
export function readOrRefuse<T>(read: () => T, refuse: (reason: string, options: ErrorOptions) => Error): T {
  try {
    return read();
  } catch (err) {
    if (!(err instanceof FileReadError)) throw err;
    throw refuse(err.reason, { cause: err });
  }
}

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
    return info.size === 0 ? readUnsized(file, path, maxBytes) : readSized(file, path, info.size);
  } catch (err) {
    // A read the kernel refuses (/proc/self/mem: EIO) is named with its path.
    if (err instanceof FileReadError) throw err;
    throw new FileReadError(path, statProblem(err), { cause: err });
  } finally {
    file.close();
  }
}

/** Reads one byte past `sizeBytes` so that growth is caught. */
function readSized(file: Deno.FsFile, path: string, sizeBytes: number): Uint8Array<ArrayBuffer> {
  const buf = new Uint8Array(sizeBytes + 1);
  let length = 0;
  while (length < buf.length) {
    const n = file.readSync(buf.subarray(length));
    if (n === null) return buf.slice(0, length);
    length += n;
  }
  const cap = formatCap(sizeBytes);
  throw new FileReadError(
    path,
    `grew past the ${cap} it had when looked at; give it once written, or a copy`,
  );
}

function readUnsized(file: Deno.FsFile, path: string, maxBytes: number): Uint8Array<ArrayBuffer> {
  const pieces: Uint8Array[] = [];
  let length = 0;
  while (length <= maxBytes) {
    const piece = new Uint8Array(Math.min(UNSIZED_PIECE_BYTES, maxBytes + 1 - length));
    const n = file.readSync(piece);
    if (n === null) break;
    pieces.push(piece.subarray(0, n));
    length += n;
  }
  if (length > maxBytes) {
    throw new FileReadError(
      path,
      `is over the cap of ${formatCap(maxBytes)} (its size is not known until read)`,
    );
  }
  return concatBytes(pieces);
}

/** The text of an open file from byte `offset`, at most `maxBytes` of it (a character cut is replaced). */
export function readTextAt(file: Deno.FsFile, offset: number, maxBytes: number): string {
  file.seekSync(offset, Deno.SeekMode.Start);
  const buf = new Uint8Array(maxBytes);
  let n = 0;
  for (let got; n < buf.length && (got = file.readSync(buf.subarray(n))) !== null;) n += got;
  return new TextDecoder().decode(buf.subarray(0, n));
}

/** The UTF-8 text of `path` (a UTF-8 byte-order mark dropped); other encodings throw `FileReadError`. */
export function readTextFileCapped(path: string, maxBytes: number): string {
  return utf8Text(path, readFileCapped(path, maxBytes));
}

/** The bytes of `path` for a parser that scans bytes, once they are known to be UTF-8 text. */
export function readUtf8FileCapped(path: string, maxBytes: number): Uint8Array<ArrayBuffer> {
  const bytes = readFileCapped(path, maxBytes);
  utf8Text(path, bytes);
  return bytes;
}

function utf8Text(path: string, bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    const line = new TextDecoder().decode(bytes).split("\uFFFD")[0].split("\n").length;
    throw new FileReadError(path, `is not UTF-8 text (line ${line}; UTF-16 or Latin-1?): use UTF-8`);
  }
}

const UNSIZED_PIECE_BYTES = 64 * 2 ** 10;

function tooLarge(path: string, size: number, maxBytes: number): FileReadError {
  return new FileReadError(path, `is ${formatCap(size)}, over the cap of ${formatCap(maxBytes)}`);
}

function specialKind(info: Deno.FileInfo): string {
  if (info.isFifo) return "a FIFO";
  if (info.isCharDevice) return "a character device";
  if (info.isBlockDevice) return "a block device";
  if (info.isSocket) return "a socket";
  return "a special file";
}

function statProblem(err: unknown): string {
  if (err instanceof Deno.errors.NotFound) return "no such file";
  if (err instanceof Deno.errors.NotADirectory) return "a part of the path is a file";
  if (err instanceof Deno.errors.PermissionDenied) return "cannot be read (permission denied)";
  if (err instanceof Deno.errors.IsADirectory) return "is a folder";
  return `cannot be read (${osErrorText(err)})`;
}
