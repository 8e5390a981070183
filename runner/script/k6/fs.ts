/**
 * @module
 * k6's `k6/experimental/fs`: `open(path)` in init code reads the file once (beside the script, as `open()`);
 * each VU reads and seeks it at its own offset, as each k6 VU opened its own `File` in its init code.
 */
import { basename, isAbsolute, join } from "node:path";
import { FileReadError, readFileCapped } from "../../../system/read_capped.ts";
import { folderOf, inInit, MAX_OPEN_BYTES } from "./init_files.ts";
import { current } from "./runtime.ts";

/** `seek`'s `whence`, as k6 numbers it. */
export const SeekMode = Object.freeze({ Start: 0, Current: 1, End: 2 });

/** A file `open` read, at an offset of each VU's own (the init code's and the hooks' one offset). */
class File {
  readonly path: string;
  readonly #data: Uint8Array;
  readonly #offsets = new WeakMap<object, number>();

  constructor(path: string, data: Uint8Array) {
    this.path = path;
    this.#data = data;
  }

  #reader(): object {
    return current()?.vu ?? this;
  }

  /** The file's base name and size in bytes. */
  stat(): Promise<{ name: string; size: number }> {
    return Promise.resolve({ name: basename(this.path), size: this.#data.length });
  }

  /** Reads into `into` from the offset: the bytes read, or null at the end of the file. */
  read(into: Uint8Array): Promise<number | null> {
    if (!(into instanceof Uint8Array)) {
      return fsError("read() failed; reason: into argument must be a Uint8Array");
    }
    const reader = this.#reader(), at = this.#offsets.get(reader) ?? 0;
    const part = this.#data.subarray(at, at + into.length);
    into.set(part);
    this.#offsets.set(reader, at + part.length);
    return Promise.resolve(part.length === 0 ? null : part.length);
  }

  /** Moves the offset as k6 does (`End` counts from the last byte) and gives the new one. */
  seek(offset: number, whence: number = SeekMode.Start): Promise<number> {
    if (typeof offset !== "number" || !Number.isInteger(whence) || whence < 0 || whence > 2) {
      return fsError("seek() failed; reason: offset is a number and whence a SeekMode");
    }
    const reader = this.#reader(), size = this.#data.length;
    if (whence === SeekMode.Start && offset < 0) {
      return fsError("offset cannot be negative when using SeekModeStart");
    }
    if (whence === SeekMode.End && offset > 0) {
      return fsError("offset cannot be positive when using SeekModeEnd");
    }
    const to = Math.trunc(offset) +
      (whence === SeekMode.Start ? 0 : whence === SeekMode.End ? size - 1 : this.#offsets.get(reader) ?? 0);
    if (to < 0 || to > size) return fsError(`seeking ${to < 0 ? "before start" : "beyond end"} of file`);
    this.#offsets.set(reader, to);
    return Promise.resolve(to);
  }
}

function fsError<T>(message: string): Promise<T> {
  return Promise.reject(new TypeError(message));
}

/** k6's `open`: in init code only, a regular file (of at most `MAX_OPEN_BYTES`), beside the script. */
export function open(path: string): Promise<File> {
  if (!inInit()) return fsError("open() failed; reason: opening a file is allowed only in the Init context");
  const given = String(path ?? "").replace(/^file:\/\//, "");
  if (given === "") return fsError("open() failed; reason: path cannot be empty");
  const full = isAbsolute(given) ? given : join(folderOf(), given);
  try {
    return Promise.resolve(new File(full, readFileCapped(full, MAX_OPEN_BYTES)));
  } catch (err) {
    if (!(err instanceof FileReadError)) throw err;
    return fsError(`open(${JSON.stringify(given)}): ${full} ${err.reason}`);
  }
}

export default { open, SeekMode };
